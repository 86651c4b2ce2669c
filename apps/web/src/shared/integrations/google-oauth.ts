import { type OAuthCompleteMessage, OAuthCompleteMessageSchema } from '@bahi/contracts';
import { ApiError } from '../../lib/api.ts';
import { callEndpoint } from '../../lib/endpoint.ts';
import { api } from '../../lib/endpoints.ts';

/** The product's connect errors, word for word. */
export const oauthErrors = {
  failed: 'Authentication failed',
  popupBlocked: 'Popup blocked. Please allow popups for this site.',
  noUrl: 'Failed to get OAuth URL',
  backend: 'Failed to connect to backend',
} as const;

/** Popup size and how long a consent may take before the attempt is abandoned. */
export const OAUTH_POPUP_FEATURES = 'width=600,height=600';
export const OAUTH_TIMEOUT_MS = 5 * 60 * 1000;

export type { OAuthCompleteMessage };

/** Accepts only our own origin's `oauth-complete` messages; anything else (extensions, frames) is ignored. */
export function parseOAuthMessage(
  event: { origin: string; data: unknown },
  expectedOrigin: string,
): OAuthCompleteMessage | null {
  if (event.origin !== expectedOrigin) return null;
  const message = OAuthCompleteMessageSchema.safeParse(event.data);
  return message.success ? message.data : null;
}

/** What the browser gives the connect flow (injectable for tests). */
export interface OAuthWindow {
  origin: string;
  open(url: string, name: string, features: string): { closed: boolean; close(): void } | null;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Asks the server for the consent URL; network failure and bad answers get the product's wording. */
export async function fetchConsentUrl(load = () => callEndpoint(api.googleConsentUrl)): Promise<string> {
  try {
    const { url } = await load();
    if (!url) throw new Error(oauthErrors.noUrl);
    return url;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'network') throw new Error(oauthErrors.backend);
    if (error instanceof ApiError && error.code === 'validation') throw new Error(error.message);
    throw new Error(oauthErrors.noUrl);
  }
}

/**
 * Opens Google's consent in a 600×600 popup and settles when the callback page posts `oauth-complete`:
 * resolves on success, rejects with the server's error or "Authentication failed". Abandoned after 5
 * minutes. The window opens blank at click time (an await first would lose the click and the popup
 * blocker would stop it) and is pointed at the consent URL once the server answers.
 */
export async function connectGoogle(
  win: OAuthWindow = window as unknown as OAuthWindow,
  loadUrl: () => Promise<string> = () => fetchConsentUrl(),
): Promise<void> {
  // Opened synchronously inside the click so popup blockers let it through; pointed at Google below.
  const popup = win.open('about:blank', 'bahi-google', OAUTH_POPUP_FEATURES);
  if (!popup) throw new Error(oauthErrors.popupBlocked);
  let url: string;
  try {
    url = await loadUrl();
  } catch (error) {
    popup.close();
    throw error;
  }
  (popup as unknown as { location: { href: string } }).location.href = url;
  return new Promise<void>((resolve, reject) => {
    const finish = (error: Error | null) => {
      win.removeEventListener('message', onMessage);
      win.clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (event: MessageEvent) => {
      const message = parseOAuthMessage(event, win.origin);
      if (!message) return;
      finish(message.success ? null : new Error(message.error || oauthErrors.failed));
    };
    const timer = win.setTimeout(() => {
      if (!popup.closed) popup.close();
      finish(new Error(oauthErrors.failed));
    }, OAUTH_TIMEOUT_MS);
    win.addEventListener('message', onMessage);
  });
}

/** The product's message when Google must be (re)authorised. */
export const GOOGLE_AUTH_REQUIRED_MESSAGE =
  'Google authorization required. Please authorize access to your Google account.';

/**
 * True when an API failure means "authorise Google first": the server's `google_auth_required`, or a
 * 401 / "not authenticated" answer from a Google step such as sheet creation. Callers open the
 * authorisation dialog instead of showing a dead-end error.
 */
export function isGoogleAuthRequired(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code === 'google_auth_required') return true;
  return error.status === 401 && /not authenticated|google/i.test(error.message);
}
