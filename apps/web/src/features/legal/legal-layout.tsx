import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';

/** One numbered section of a legal document. */
export interface LegalSection {
  heading: string;
  body: React.ReactNode;
}

/** Long-form reading layout shared by the Terms and the Privacy Policy. */
export function LegalLayout({
  title,
  lastUpdated,
  intro,
  sections,
}: {
  title: string;
  lastUpdated: string;
  intro: React.ReactNode;
  sections: LegalSection[];
}) {
  useDocumentTitle(title);

  return (
    <div className="min-h-svh bg-background">
      <header className="sticky top-0 z-10 border-b bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between px-6">
          {/* As the product's specification has it: Back opens the app's start (home, or sign-up when signed out). */}
          <Button variant="ghost" size="sm" asChild className="-ml-2">
            <Link to="/">
              <ArrowLeftIcon aria-hidden="true" />
              Back
            </Link>
          </Button>
          <BrandLogo />
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-6 py-12">
        <h1 className="font-semibold text-3xl tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-2 text-muted-foreground text-sm">{lastUpdated}</p>
        <div className="mt-8 text-[15px] text-foreground/90 leading-7">{intro}</div>
        <div className="mt-10 flex flex-col gap-9">
          {sections.map((section, index) => (
            <section key={section.heading} aria-labelledby={`legal-${index}`}>
              <h2 id={`legal-${index}`} className="font-semibold text-lg tracking-tight">
                {index + 1}. {section.heading}
              </h2>
              <div className="mt-3 space-y-3 text-[15px] text-foreground/85 leading-7 [&_li]:mt-1.5 [&_ul]:list-disc [&_ul]:pl-5">
                {section.body}
              </div>
            </section>
          ))}
        </div>
        <p className="mt-14 border-t pt-6 text-muted-foreground text-sm">
          Questions about this document? Contact the operator of this Bahi deployment — for a self-hosted
          installation, that is your organisation's administrator.
        </p>
      </main>
    </div>
  );
}
