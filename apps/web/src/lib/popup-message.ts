import type { PopupAuthMessage } from '@bahi/contracts';

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
  // Checked by hand rather than with the contracts' zod schema, to keep zod out of the first bundle.
  const data = event.data as Partial<Record<keyof PopupAuthMessage, unknown>> | null;
  if (
    typeof data !== 'object' ||
    data === null ||
    data.type !== 'bahi-auth' ||
    typeof data.ok !== 'boolean'
  ) {
    return null;
  }
  if (data.error !== undefined && typeof data.error !== 'string') return null;
  return data.error === undefined
    ? { type: 'bahi-auth', ok: data.ok }
    : { type: 'bahi-auth', ok: data.ok, error: data.error };
}
