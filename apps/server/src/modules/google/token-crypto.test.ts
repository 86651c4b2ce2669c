import { describe, expect, it } from 'vitest';
import { decryptToken, deriveTokenKey, encryptToken } from './token-crypto.ts';

describe('token encryption at rest', () => {
  const key = deriveTokenKey('a-server-secret-of-at-least-32-characters!!');

  it('round-trips, and never stores the token or repeats a ciphertext', () => {
    const a = encryptToken(key, '1//refresh-token-value', 'org-1');
    const b = encryptToken(key, '1//refresh-token-value', 'org-1');
    expect(a).toMatch(/^v1:/);
    expect(a).not.toContain('refresh-token-value');
    expect(a).not.toBe(b); // fresh IV each time
    expect(decryptToken(key, a, 'org-1')).toBe('1//refresh-token-value');
  });

  it('refuses another organisation, another secret and tampered bytes', () => {
    const sealed = encryptToken(key, 'secret', 'org-1');
    expect(() => decryptToken(key, sealed, 'org-2')).toThrow();
    expect(() =>
      decryptToken(deriveTokenKey('another-server-secret-of-32-characters!!'), sealed, 'org-1'),
    ).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => decryptToken(key, `v1:${raw.toString('base64url')}`, 'org-1')).toThrow();
    expect(() => decryptToken(key, 'v0:abc', 'org-1')).toThrow(/format/);
  });
});
