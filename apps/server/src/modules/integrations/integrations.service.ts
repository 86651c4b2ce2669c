import type { Integrations } from '@bahi/contracts';
import type { Env } from '../../config/env.ts';

/**
 * The integrations page's state. Google is "configured" when the server has OAuth client credentials;
 * connecting an organisation's Drive/Sheets account comes with the Google module, so it is never
 * connected yet.
 */
export function getIntegrations(env: Env): Integrations {
  const configured = env.google !== undefined;
  return {
    google: {
      configured,
      connected: false,
      email: null,
      scopes: [],
      note: configured
        ? 'Google sign-in is configured. Connecting Google Drive and Sheets for your organization is coming soon.'
        : 'Google is not configured on this server. Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (an OAuth client ' +
          `of type "Web application" with redirect URI <PUBLIC_URL>/api/auth/callback/google) and restart Bahi.`,
    },
  };
}
