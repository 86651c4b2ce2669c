import { ROLE_INFO } from '@bahi/contracts';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { PENDING_INVITE_KEY } from '@/lib/route-guard.ts';
import { useSession } from '@/lib/session.ts';
import { useAcceptInvitation, useInvitation } from './queries.ts';

/** `/invite/:token`: what the invitation offers; sign up or in, then join. */
export function InvitePage() {
  useDocumentTitle('Invitation');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation(token);
  const signedIn = Boolean(session.data?.user);
  const here = `/invite/${token}`;

  // A link that no longer works is not returned to after signing in.
  useEffect(() => {
    if (invitation.isError) window.sessionStorage.removeItem(PENDING_INVITE_KEY);
  }, [invitation.isError]);

  const join = async () => {
    try {
      await accept.mutateAsync();
      window.sessionStorage.removeItem(PENDING_INVITE_KEY);
      toast.success(`You joined ${invitation.data?.organizationName ?? 'the organisation'}`);
      navigate('/', { replace: true });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not join');
    }
  };
  const remember = () => window.sessionStorage.setItem(PENDING_INVITE_KEY, here);
  const decline = () => {
    window.sessionStorage.removeItem(PENDING_INVITE_KEY);
    navigate('/', { replace: true });
  };

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="gap-3">
          <BrandLogo />
          <CardTitle>
            <h1 className="text-xl">
              {invitation.data ? `Join ${invitation.data.organizationName}` : 'Invitation'}
            </h1>
          </CardTitle>
          {invitation.data && (
            <CardDescription>
              {invitation.data.invitedBy} invited {invitation.data.email ?? 'you'} to work in Bahi as{' '}
              <strong>{ROLE_INFO[invitation.data.role].label.toLowerCase()}</strong>:{' '}
              {ROLE_INFO[invitation.data.role].description.toLowerCase()}.
            </CardDescription>
          )}
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {invitation.isPending ? (
            <Skeleton className="h-10" />
          ) : invitation.isError ? (
            <>
              <p className="text-destructive text-sm" role="alert">
                {invitation.error.message}
              </p>
              <Button asChild variant="outline">
                <Link to="/">Go to Bahi</Link>
              </Button>
            </>
          ) : signedIn ? (
            <>
              <Button onClick={() => void join()} disabled={accept.isPending}>
                Join {invitation.data.organizationName}
              </Button>
              <Button variant="ghost" onClick={decline}>
                Not now
              </Button>
            </>
          ) : (
            <>
              <p className="text-muted-foreground text-sm">Sign in, or create an account, to join.</p>
              <Button asChild onClick={remember}>
                <Link to="/signup">Create an account</Link>
              </Button>
              <Button asChild variant="outline" onClick={remember}>
                <Link to="/login">I have an account: sign in</Link>
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
