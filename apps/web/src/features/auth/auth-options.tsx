import { FormError } from '@/components/form-error.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { EmailAuthForm } from './email-auth-form.tsx';
import { ProviderButtons } from './provider-buttons.tsx';
import { useAuthConfig } from './queries.ts';

/** Provider buttons and/or the e-mail form, depending on what the server has configured. */
export function AuthOptions({ mode }: { mode: 'signin' | 'signup' }) {
  const config = useAuthConfig();

  if (config.isPending) {
    return (
      <div className="flex flex-col gap-4" aria-busy="true">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  }
  if (config.isError) {
    return (
      <FormError message="Could not load sign-in options. Check that the Bahi server is running and reload." />
    );
  }

  const { providers, localAccounts } = config.data;
  return (
    <div className="flex flex-col gap-6">
      {providers.length > 0 && <ProviderButtons providers={providers} mode={mode} />}
      {providers.length > 0 && localAccounts && (
        <div className="flex items-center gap-3 text-muted-foreground text-xs uppercase tracking-wide">
          <span className="h-px flex-1 bg-border" />
          or continue with email
          <span className="h-px flex-1 bg-border" />
        </div>
      )}
      {localAccounts && <EmailAuthForm mode={mode} />}
      {!localAccounts && providers.length === 0 && (
        <p className="rounded-md border border-dashed bg-muted/40 p-4 text-muted-foreground text-sm">
          No sign-in method is configured. Ask your administrator to set up Google or an OIDC provider, or to
          enable local accounts.
        </p>
      )}
    </div>
  );
}
