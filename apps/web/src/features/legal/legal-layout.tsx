import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { useNavigate } from 'react-router';
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
  const navigate = useNavigate();

  function goBack() {
    // `idx` is React Router's position in its own history stack: 0 means we were opened directly.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/login');
  }

  return (
    <div className="min-h-svh bg-background">
      <header className="sticky top-0 z-10 border-b bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between px-6">
          <Button variant="ghost" size="sm" onClick={goBack} className="-ml-2">
            <ArrowLeftIcon aria-hidden="true" />
            Back
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
