import { describe, expect, it } from 'vitest';
import { buildPopupUrl, parsePopupMessage } from './popup-message.ts';

describe('parsePopupMessage', () => {
  const origin = 'http://localhost:3000';

  it('accepts bahi-auth messages from our origin', () => {
    expect(parsePopupMessage({ origin, data: { type: 'bahi-auth', ok: true } }, origin)).toEqual({
      type: 'bahi-auth',
      ok: true,
    });
    expect(
      parsePopupMessage({ origin, data: { type: 'bahi-auth', ok: false, error: 'access_denied' } }, origin),
    ).toMatchObject({ ok: false, error: 'access_denied' });
  });

  it('ignores other origins and other shapes', () => {
    expect(
      parsePopupMessage({ origin: 'https://evil.example', data: { type: 'bahi-auth', ok: true } }, origin),
    ).toBe(null);
    expect(parsePopupMessage({ origin, data: { type: 'something-else', ok: true } }, origin)).toBe(null);
    expect(parsePopupMessage({ origin, data: 'bahi-auth' }, origin)).toBe(null);
  });
});

describe('buildPopupUrl', () => {
  it('encodes the provider id and mode', () => {
    expect(buildPopupUrl('google', 'signup')).toBe('/auth/popup/google?mode=signup');
    expect(buildPopupUrl('my idp', 'signin')).toBe('/auth/popup/my%20idp?mode=signin');
  });
});
