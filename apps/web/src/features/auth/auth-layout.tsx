import { BotIcon, FileSearchIcon, LandmarkIcon, WalletIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';

const blurbs = [
  {
    icon: BotIcon,
    title: 'Automation',
    text: 'Turn repetitive bookkeeping into processing flows that run on their own, every time a document lands.',
  },
  {
    icon: FileSearchIcon,
    title: 'Parse and reconcile documents',
    text: 'Extract every field from POs, GRNs and GST invoices and match them line by line, with the source of each value.',
  },
  {
    icon: LandmarkIcon,
    title: 'GST/TDS and compliance',
    text: 'Check GSTINs, tax splits and TDS sections against Indian rules before anything reaches your books.',
  },
  {
    icon: WalletIcon,
    title: 'Vendor payouts and portal',
    text: 'Onboard vendors with verified GSTIN, PAN and bank details and pay them on time, MSME dues first.',
  },
];

/** What Bahi is today, said once on the sign-in panel. */
const BETA_NOTE = 'A finance co-pilot in beta: check what it reads before you book it.';

function BetaBadge() {
  return (
    <span className="rounded-full bg-white/15 px-2 py-0.5 font-semibold text-[11px] uppercase tracking-wide ring-1 ring-white/25">
      Beta
    </span>
  );
}

/** Split layout of the sign-in and sign-up pages: marketing panel on the left, the form on the right. */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
  footer: React.ReactNode;
}) {
  return (
    <div className="grid min-h-svh lg:grid-cols-[minmax(0,1.05fr)_minmax(0,1fr)]">
      <aside className="relative hidden overflow-hidden bg-[oklch(0.27_0.11_274)] text-white lg:flex lg:flex-col lg:justify-between lg:p-12">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,oklch(0.45_0.2_274/0.55),transparent_60%),radial-gradient(ellipse_at_bottom_right,oklch(0.5_0.15_200/0.3),transparent_55%)]"
        />
        <div className="relative">
          <BrandLogo inverted />
        </div>
        <div className="relative max-w-lg">
          <h2 className="font-semibold text-4xl leading-tight tracking-tight">
            Streamline your operations with AI
          </h2>
          <p className="mt-3 text-base text-indigo-100/85">
            The finance back office for lean Indian teams — from purchase order to payout.
          </p>
          <p className="mt-4 flex items-center gap-2 text-indigo-100/90 text-sm">
            <BetaBadge />
            {BETA_NOTE}
          </p>
          <ul className="mt-10 space-y-6">
            {blurbs.map(({ icon: Icon, title: blurbTitle, text }) => (
              <li key={blurbTitle} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/15">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-medium">{blurbTitle}</h3>
                  <p className="mt-1 text-indigo-100/80 text-sm leading-relaxed">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-indigo-100/70 text-xs">
          Self-hosted. Your data stays on your infrastructure.
        </p>
      </aside>

      {/* Phones and tablets: the panel condensed above the form, not dropped. */}
      <section
        aria-label="About Bahi"
        className="relative overflow-hidden bg-[oklch(0.27_0.11_274)] px-6 py-7 text-white sm:px-10 lg:hidden"
      >
        <BrandLogo inverted />
        <p className="mt-4 font-semibold text-xl leading-snug tracking-tight">
          Streamline your operations with AI
        </p>
        <ul className="mt-3 flex flex-wrap gap-2">
          {blurbs.map(({ icon: Icon, title: blurbTitle }) => (
            <li
              key={blurbTitle}
              className="flex items-center gap-1.5 rounded-full bg-white/10 px-2.5 py-1 text-xs ring-1 ring-white/15"
            >
              <Icon className="size-3.5" aria-hidden="true" />
              {blurbTitle}
            </li>
          ))}
        </ul>
        <p className="mt-3 flex items-center gap-2 text-indigo-100/90 text-xs">
          <BetaBadge />
          {BETA_NOTE}
        </p>
      </section>

      <main className="flex flex-col items-center justify-center px-6 py-10 sm:px-10 lg:py-12">
        <div className="w-full max-w-sm">
          <h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
          <p className="mt-1.5 text-muted-foreground text-sm">{description}</p>
          <div className="mt-8">{children}</div>
          <div className="mt-8 text-center text-muted-foreground text-sm">{footer}</div>
          <p className="mt-10 text-center text-muted-foreground text-xs leading-relaxed">
            By continuing you agree to our{' '}
            <Link to="/terms-and-conditions" className="underline underline-offset-4 hover:text-foreground">
              Terms and Conditions
            </Link>{' '}
            and{' '}
            <Link to="/privacy-policy" className="underline underline-offset-4 hover:text-foreground">
              Privacy Policy
            </Link>
            .
          </p>
        </div>
      </main>
    </div>
  );
}
