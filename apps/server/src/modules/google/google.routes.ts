import { createHash } from 'node:crypto';
import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { isAppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import {
  buildConsentUrl,
  completeOAuth,
  disconnectGoogle,
  getGoogleStatus,
  setupParentFolder,
  setupVendorSheet,
  verifyGoogleConnection,
} from './google.service.ts';

const oauthUrlRoute = routeFor(endpoints.googleConsentUrl, {
  tags: ['Google'],
  summary: 'Consent URL for connecting Google Drive and Sheets (open it in a 600×600 popup)',
  errors: ['unauthenticated', 'no_organization', 'validation'],
});

const statusRoute = routeFor(endpoints.googleStatus, {
  tags: ['Google'],
  summary: 'Google connection state with the parent folder and vendor master sheet',
  errors: ['unauthenticated', 'no_organization'],
});

const refreshRoute = routeFor(endpoints.googleVerify, {
  tags: ['Google'],
  summary: 'Checks the connection for real (token refresh + account lookup)',
  errors: ['unauthenticated', 'no_organization', 'google_auth_required'],
});

const disconnectRoute = routeFor(endpoints.googleDisconnect, {
  tags: ['Google'],
  summary: 'Revokes the Google grant and clears the folder and sheet set-up',
  errors: ['unauthenticated', 'no_organization', 'internal'],
});

const folderRoute = routeFor(endpoints.googleFolder, {
  tags: ['Google'],
  summary: 'Sets the parent Drive folder by link, or creates one when no link is given',
  body: { required: true },
  errors: ['unauthenticated', 'no_organization', 'validation', 'google_auth_required'],
});

const vendorSheetRoute = routeFor(endpoints.googleVendorSheet, {
  tags: ['Google'],
  summary: 'Sets the vendor master sheet by link, or creates one when no link is given',
  body: { required: true },
  errors: ['unauthenticated', 'no_organization', 'validation', 'google_auth_required'],
});

/** The popup page's only script: reads the result block, hands it to the opener, closes. */
const CALLBACK_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('oauth-result').textContent);
  if (window.opener) {
    window.opener.postMessage(data, location.origin);
    window.close();
  }
  document.getElementById('oauth-status').textContent = data.success
    ? 'Google connected. You can close this window.'
    : 'Google connection failed: ' + (data.error || 'Authentication failed');
})();`;

const CALLBACK_CSP = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(CALLBACK_SCRIPT).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`;

/** HTML of the OAuth callback: posts `{ type: 'oauth-complete', success, error }` to the opener. */
export function renderOAuthCompletePage(success: boolean, error: string | null): string {
  const json = JSON.stringify({ type: 'oauth-complete', success, error }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bahi · Google</title><meta name="viewport" content="width=device-width"></head>
<body>
<p id="oauth-status">Finishing…</p>
<script type="application/json" id="oauth-result">${json}</script>
<script>${CALLBACK_SCRIPT}</script>
</body>
</html>`;
}

/** Records a change of the Google connection in the audit trail. */
function auditIntegration(
  db: AppDeps['db'],
  { user, membership, summary }: { user: SessionUser; membership: Membership; summary: string },
): Promise<void> {
  return recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'integration.changed',
    actor: user,
    summary,
    details: { integration: 'google' },
  });
}

/** `/api/oauth/*`, `/api/google/*` (the old debug route `/api/debug/clear-tokens` is gone: disconnect does it). */
export function createGoogleRoutes({ db, env, logger }: AppDeps) {
  const router = createRouter()
    .openapi(oauthUrlRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json({ url: await buildConsentUrl(env, user, membership) }, 200);
    })
    .openapi(statusRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getGoogleStatus(db, env, membership.organizationId), 200);
    })
    .openapi(refreshRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await verifyGoogleConnection(db, env, membership.organizationId), 200);
    })
    .openapi(disconnectRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const status = await disconnectGoogle(db, env, membership.organizationId);
      await auditIntegration(db, { user, membership, summary: `${user.name} disconnected Google` });
      return c.json(status, 200);
    })
    .openapi(folderRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const status = await setupParentFolder(db, {
        env,
        organizationId: membership.organizationId,
        input: c.req.valid('json'),
      });
      await auditIntegration(db, { user, membership, summary: `${user.name} set the Google Drive folder` });
      return c.json(status, 200);
    })
    .openapi(vendorSheetRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const status = await setupVendorSheet(db, {
        env,
        organizationId: membership.organizationId,
        input: c.req.valid('json'),
      });
      await auditIntegration(db, { user, membership, summary: `${user.name} set the vendor master sheet` });
      return c.json(status, 200);
    });

  // Google redirects the popup here; the answer is an HTML page, not JSON, so it is a plain route.
  router.get('/oauth/callback', async (c) => {
    let success = true;
    let error: string | null = null;
    try {
      await completeOAuth(db, {
        env,
        sessionUser: c.get('user'),
        query: {
          code: c.req.query('code'),
          state: c.req.query('state'),
          error: c.req.query('error'),
        },
      });
      const user = c.get('user');
      const membership = c.get('membership');
      if (user && membership)
        await auditIntegration(db, { user, membership, summary: `${user.name} connected Google` });
    } catch (caught) {
      success = false;
      error = isAppError(caught) ? caught.message : 'Authentication failed';
      if (!isAppError(caught)) logger.error({ err: caught }, 'Google OAuth callback failed');
    }
    c.header('content-security-policy', CALLBACK_CSP);
    // The popup came back from Google's pages: this policy keeps `window.opener` for postMessage.
    c.header('cross-origin-opener-policy', 'unsafe-none');
    c.header('cache-control', 'no-store');
    return c.html(renderOAuthCompletePage(success, error), success ? 200 : 400);
  });
  return router;
}
