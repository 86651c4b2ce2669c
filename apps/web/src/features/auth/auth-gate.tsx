import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ApiError } from '@/lib/api.ts';
import { isErrorTestEnabled } from '@/lib/error-test.ts';
import { decideRoute, PENDING_INVITE_KEY } from '@/lib/route-guard.ts';
import { useMe, useSession } from '@/lib/session.ts';
import { isSigningOut } from '@/lib/sign-out.ts';

/**
 * Root route element: applies the route guard (`decideRoute`) to every navigation, so pages can
 * assume the visitor may see them.
 */
export function AuthGate() {
  const location = useLocation();
  const session = useSession();
  const me = useMe();

  // A session the API no longer accepts (e.g. the user was deleted) counts as signed out.
  const meUnauthenticated = me.error instanceof ApiError && me.error.status === 401;
  const signedIn = Boolean(session.data?.user) && !meUnauthenticated;
  const decision = decideRoute({
    pathname: location.pathname,
    session: session.isPending ? 'loading' : signedIn ? 'signed-in' : 'signed-out',
    hasOrganization: me.data ? me.data.organization !== null : undefined,
    errorTestEnabled: isErrorTestEnabled(import.meta.env.DEV, window.localStorage),
    pendingInvite: window.sessionStorage.getItem(PENDING_INVITE_KEY),
  });

  if (isSigningOut()) return <FullPageSpinner />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'render') return <Outlet />;
  if (signedIn && me.isError) {
    return (
      <div className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="font-semibold text-xl">We couldn't load your workspace</h1>
        <p className="max-w-md text-muted-foreground text-sm">{me.error.message}</p>
        <Button onClick={() => me.refetch()}>Try again</Button>
      </div>
    );
  }
  return <FullPageSpinner />;
}
