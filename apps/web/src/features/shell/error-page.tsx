import { AlertTriangleIcon, HomeIcon, RotateCwIcon } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';

/** Message of whatever was thrown during render or loading. */
function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'An unknown error occurred.';
}

/** Router `errorElement`: shown when any route fails to render. Uses plain links so it works even if the app state is broken. */
export function ErrorPage() {
  useDocumentTitle('Error');
  const error = useRouteError();
  return (
    <div className="flex min-h-svh flex-col items-center justify-center bg-background px-6 py-12">
      <BrandLogo className="mb-10" />
      <div className="w-full max-w-lg rounded-xl border bg-card p-8 shadow-xs">
        <div className="flex size-11 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <AlertTriangleIcon className="size-5" aria-hidden="true" />
        </div>
        <h1 className="mt-5 font-semibold text-2xl tracking-tight">Unexpected Application Error!</h1>
        <p className="mt-2 text-muted-foreground text-sm">
          Something went wrong while showing this page. Reloading usually fixes it; if it keeps happening,
          tell your administrator what you were doing.
        </p>
        <pre className="mt-5 overflow-x-auto whitespace-pre-wrap break-words rounded-md bg-muted px-4 py-3 font-mono text-destructive text-sm">
          {describeError(error)}
        </pre>
        <div className="mt-6 flex flex-wrap gap-3">
          <Button onClick={() => window.location.reload()}>
            <RotateCwIcon aria-hidden="true" />
            Reload
          </Button>
          <Button variant="outline" asChild>
            <a href="/">
              <HomeIcon aria-hidden="true" />
              Go home
            </a>
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Throws during render so the browser tests can exercise `ErrorPage`. */
export function ErrorTestPage(): never {
  throw new Error('Error test: this page throws on purpose to exercise the error screen.');
}
