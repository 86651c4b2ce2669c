import { type PopupAuthMessage, PopupAuthMessageSchema } from '@bahi/contracts';

/** Window name shared by every sign-in popup so a second click reuses the first window. */
export const POPUP_WINDOW_NAME = 'bahi-sso';

/** Size of the identity-provider popup. */
export const POPUP_FEATURES = 'width=500,height=650';

/** Server path that starts an identity-provider sign-in inside the popup. */
export function buildPopupUrl(providerId: string, mode: 'signin' | 'signup'): string {
  return `/auth/popup/${encodeURIComponent(providerId)}?mode=${mode}`;
}

/**
 * Accepts a `message` event only if it comes from our own origin and has the `bahi-auth` shape;
 * anything else (browser extensions, other frames) is ignored.
 */
export function parsePopupMessage(
  event: { origin: string; data: unknown },
  expectedOrigin: string,
): PopupAuthMessage | null {
  if (event.origin !== expectedOrigin) return null;
  const parsed = PopupAuthMessageSchema.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}
