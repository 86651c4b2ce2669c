import { appPaths, endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { isAppError } from '../../lib/app-error.ts';
import { buildMailConsentUrl, completeMailOAuth } from './mail-oauth.ts';

const startRoute = routeFor(endpoints.connectMailbox, {
  tags: ['Flows'],
  summary: "Sign-in page connecting the flow's mailbox with Google or Microsoft 365 (OAuth2, IMAP XOAUTH2)",
  body: { description: 'The provider', required: true },
  errors: ['unauthenticated', 'forbidden', 'no_organization', 'not_found', 'validation'],
});

/** `/api/flows/:id/mail-oauth` and the providers' callback `/api/mail-oauth/callback`. */
export function createMailOAuthRoutes({ db, env, logger }: AppDeps) {
  const router = createRouter().openapi(startRoute, async (c) => {
    const { user, membership } = requireMembership(c);
    const { provider } = c.req.valid('json');
    const url = await buildMailConsentUrl(db, env, {
      user,
      membership,
      flowId: c.req.valid('param').id,
      provider,
    });
    return c.json({ url }, 200);
  });
  // The provider sends the browser back here (a full-page redirect): the answer is a redirect to the
  // flow, with `mailOAuth=connected` or the error in words, not JSON.
  router.get('/mail-oauth/callback', async (c) => {
    try {
      const { flowId } = await completeMailOAuth(db, env, {
        sessionUser: c.get('user'),
        query: { code: c.req.query('code'), state: c.req.query('state'), error: c.req.query('error') },
      });
      return c.redirect(`${appPaths.flowSheet(flowId)}&mailOAuth=connected`, 302);
    } catch (caught) {
      if (!isAppError(caught)) logger.error({ err: caught }, 'mail OAuth callback failed');
      const message = isAppError(caught) ? caught.message : 'Connecting the mailbox failed; try again';
      c.header('cache-control', 'no-store');
      return c.redirect(`/parse?mailOAuthError=${encodeURIComponent(message)}`, 302);
    }
  });
  return router;
}
