import { Hono } from 'hono';
import { listIdentityProviders } from '../../config/env.ts';
import type { AppDeps, AppEnv } from '../../http/context.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER } from './auth.ts';
import { POPUP_CSP, renderPopupDonePage } from './popup.ts';

/** Path the identity provider's callback finally lands on in the popup. */
export const POPUP_DONE_PATH = '/auth/popup-done';

/**
 * Copies the request with the client IP header set from the socket (any client-sent value is replaced),
 * so better-auth's per-IP rate limits can't be dodged by spoofing the header.
 */
export function withClientIp(request: Request, ip: string | undefined): Request {
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  return new Request(request, { headers });
}

/**
 * Popup sign-in with an identity provider, outside /api because the browser navigates here:
 * `GET /auth/popup/:providerId` starts better-auth's OAuth flow (state cookie + redirect to the provider)
 * with the callback ending at `/auth/popup-done`, which reports to the opener window.
 */
export function createPopupRoutes(
  { env, auth }: AppDeps,
  getClientIp: (c: import('hono').Context) => string | undefined,
) {
  const app = new Hono<AppEnv>();
  const publicOrigin = new URL(env.publicUrl).origin;

  app.get('/auth/popup/:providerId', async (c) => {
    const providerId = c.req.param('providerId');
    if (!listIdentityProviders(env).some((p) => p.id === providerId)) {
      return c.redirect(`${POPUP_DONE_PATH}?error=${encodeURIComponent('unknown_provider')}`);
    }
    // Ask better-auth for the authorization URL as the web app would, then redirect the popup to it.
    const start = new Request(`${env.publicUrl}${AUTH_BASE_PATH}/sign-in/social`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: publicOrigin,
        cookie: c.req.header('cookie') ?? '',
        'user-agent': c.req.header('user-agent') ?? '',
      },
      body: JSON.stringify({
        provider: providerId,
        callbackURL: POPUP_DONE_PATH,
        errorCallbackURL: POPUP_DONE_PATH,
        newUserCallbackURL: POPUP_DONE_PATH,
        disableRedirect: true,
      }),
    });
    const response = await auth.handler(withClientIp(start, getClientIp(c)));
    const data = (await response.json().catch(() => null)) as { url?: string; message?: string } | null;
    if (!response.ok || !data?.url) {
      const reason = data?.message ?? `sign-in could not start (${response.status})`;
      return c.redirect(`${POPUP_DONE_PATH}?error=${encodeURIComponent(reason)}`);
    }
    const redirect = new Response(null, {
      status: 302,
      headers: { location: data.url, 'cache-control': 'no-store' },
    });
    for (const cookie of response.headers.getSetCookie()) redirect.headers.append('set-cookie', cookie);
    return redirect;
  });

  app.get(POPUP_DONE_PATH, async (c) => {
    const error = c.req.query('error');
    const session = error ? null : await auth.api.getSession({ headers: c.req.raw.headers });
    const html = renderPopupDonePage(
      error || !session
        ? { type: 'bahi-auth', ok: false, error: error ?? 'No session was created' }
        : { type: 'bahi-auth', ok: true },
    );
    c.header('content-security-policy', POPUP_CSP);
    c.header('cache-control', 'no-store');
    return c.html(html);
  });

  return app;
}
