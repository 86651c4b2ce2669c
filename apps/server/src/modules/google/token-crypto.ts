import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 256-bit key for token encryption, derived from the server secret (HKDF-SHA256, fixed context). */
export type TokenKey = Buffer;

/**
 * Derives the token-encryption key from the server secret. HKDF with its own `info` keeps this key
 * independent of every other use of the secret (session signing), so neither leaks the other.
 */
export function deriveTokenKey(secret: string): TokenKey {
  return Buffer.from(hkdfSync('sha256', secret, 'bahi', 'google-oauth-tokens/v1', 32));
}

/**
 * Encrypts a token with AES-256-GCM. `context` (the organisation id) is bound as associated data, so a
 * ciphertext copied onto another organisation's row does not decrypt.
 */
export function encryptToken(key: TokenKey, plain: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** Decrypts `encryptToken`'s output; throws when the key, the context or the bytes do not match. */
export function decryptToken(key: TokenKey, sealed: string, context: string): string {
  const [version, data] = sealed.split(':');
  if (version !== VERSION || !data) throw new Error('Unknown token encryption format');
  const raw = Buffer.from(data, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Encrypted token is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
