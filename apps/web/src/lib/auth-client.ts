import { createAuthClient } from 'better-auth/react';

/**
 * better-auth client for `/api/auth/*` on our own origin, so the httpOnly session cookie is sent.
 * Identity-provider sign-in goes through the server's popup routes (`/auth/popup/:id`), not through
 * a client plugin, so no OAuth plugin is registered here (better-auth 1.7 ships no
 * `genericOAuthClient`; the popup flow needs none).
 */
export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  basePath: '/api/auth',
});
