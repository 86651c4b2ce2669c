import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import {
  connectGoogle,
  fetchConsentUrl,
  isGoogleAuthRequired,
  OAUTH_POPUP_FEATURES,
  OAUTH_TIMEOUT_MS,
  type OAuthWindow,
  oauthErrors,
  parseOAuthMessage,
} from './google-oauth.ts';

const origin = 'http://localhost:3000';

/** A fake window: records the popup, lets the test post messages and fire the timer. */
function createFakeWindow(options: { blocked?: boolean } = {}) {
  const listeners = new Set<(event: MessageEvent) => void>();
  const popup = {
    closed: false,
    location: { href: '' },
    close() {
      this.closed = true;
    },
  };
  let timer: (() => void) | null = null;
  const opened: Array<{ url: string; features: string }> = [];
  const win: OAuthWindow = {
    origin,
    open(url, _name, features) {
      opened.push({ url, features });
      return options.blocked ? null : popup;
    },
    addEventListener: (_type, l) => listeners.add(l),
    removeEventListener: (_type, l) => listeners.delete(l),
    setTimeout: (cb, ms) => {
      expect(ms).toBe(OAUTH_TIMEOUT_MS);
      timer = cb;
      return 1;
    },
    clearTimeout: () => {
      timer = null;
    },
  };
  const post = (data: unknown, from = origin) => {
    for (const l of [...listeners]) l({ origin: from, data } as MessageEvent);
  };
  return { win, popup, opened, post, fireTimer: () => timer?.(), listeners };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('Google connect popup', () => {
  it('opens 600×600 at the consent URL and resolves on a successful oauth-complete', async () => {
    const fake = createFakeWindow();
    const done = connectGoogle(fake.win, async () => 'https://accounts.example/consent');
    await flush();
    expect(fake.opened[0]?.features).toBe(OAUTH_POPUP_FEATURES);
    expect(OAUTH_POPUP_FEATURES).toBe('width=600,height=600');
    expect(fake.popup.location.href).toBe('https://accounts.example/consent');
    fake.post({ type: 'oauth-complete', success: true, error: null }, 'https://evil.example'); // ignored
    fake.post({ type: 'oauth-complete', success: true, error: null });
    await expect(done).resolves.toBeUndefined();
    expect(fake.listeners.size).toBe(0);
  });

  it('rejects with the server error, or "Authentication failed" by default', async () => {
    const a = createFakeWindow();
    const withError = connectGoogle(a.win, async () => 'u');
    await flush();
    a.post({ type: 'oauth-complete', success: false, error: 'Access was not granted' });
    await expect(withError).rejects.toThrow('Access was not granted');

    const b = createFakeWindow();
    const noError = connectGoogle(b.win, async () => 'u');
    await flush();
    b.post({ type: 'oauth-complete', success: false, error: null });
    await expect(noError).rejects.toThrow(oauthErrors.failed);
  });

  it('reports a blocked popup, and gives up after 5 minutes', async () => {
    await expect(connectGoogle(createFakeWindow({ blocked: true }).win, async () => 'u')).rejects.toThrow(
      'Popup blocked. Please allow popups for this site.',
    );
    const fake = createFakeWindow();
    const pending = connectGoogle(fake.win, async () => 'u');
    await flush();
    fake.fireTimer();
    await expect(pending).rejects.toThrow('Authentication failed');
    expect(fake.popup.closed).toBe(true);
  });

  it('words consent-URL failures as the product does', async () => {
    await expect(
      fetchConsentUrl(async () => {
        throw new ApiError('network', 'offline', 0);
      }),
    ).rejects.toThrow('Failed to connect to backend');
    await expect(
      fetchConsentUrl(async () => {
        throw new ApiError('internal', 'boom', 500);
      }),
    ).rejects.toThrow('Failed to get OAuth URL');
    expect(parseOAuthMessage({ origin, data: { type: 'bahi-auth', ok: true } }, origin)).toBeNull();
    expect(
      parseOAuthMessage({ origin, data: { type: 'oauth-complete', success: 'yes' } }, origin),
    ).toBeNull();
    expect(parseOAuthMessage({ origin, data: { type: 'oauth-complete', success: false } }, origin)).toEqual({
      type: 'oauth-complete',
      success: false,
      error: null,
    });
    expect(
      parseOAuthMessage(
        { origin: 'https://evil.example', data: { type: 'oauth-complete', success: true } },
        origin,
      ),
    ).toBeNull();
  });

  it('knows which failures call for the authorisation dialog', () => {
    expect(
      isGoogleAuthRequired(new ApiError('google_auth_required', 'Google authorization required.', 403)),
    ).toBe(true);
    expect(isGoogleAuthRequired(new ApiError('http_401', 'Not authenticated', 401))).toBe(true);
    expect(isGoogleAuthRequired(new ApiError('validation', 'Invalid Google Drive URL', 400))).toBe(false);
    expect(isGoogleAuthRequired(new Error('google_auth_required'))).toBe(false);
  });
});
