import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Where uploaded document bytes live, shared by every process that needs them. Keys are relative,
 * slash-separated and content-addressed (`<org>/<flow>/<sha256>.<ext>`), so a put of an existing key is a
 * no-op and readers never see a changed blob.
 */
export interface BlobStore {
  /** Which implementation (for logs and /readyz-style diagnostics). */
  readonly kind: 'local' | 'database';
  /** Stores `bytes` under `key` atomically; storing an existing key again changes nothing. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes `key` (missing keys are fine). */
  delete(key: string): Promise<void>;
}

/** Refuses keys that could escape a folder or collide with temp files: only `a-z0-9._-` segments. */
export function assertBlobKey(key: string): void {
  const ok = key
    .split('/')
    .every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment) && !segment.endsWith('.tmp'));
  if (!ok || key.length > 512) throw new Error(`invalid blob key "${key}"`);
}

/**
 * A local file with the blob's bytes, for code that reads paths (the extraction pool): the blob is copied into
 * `cacheDir` once (temp file + rename, so concurrent callers are safe) and the path returned; undefined when
 * the store has no such key.
 */
export async function materializeBlob(
  store: BlobStore,
  key: string,
  cacheDir: string,
): Promise<string | undefined> {
  assertBlobKey(key);
  const root = resolve(cacheDir);
  const path = resolve(root, ...key.split('/'));
  if (!path.startsWith(root + sep)) throw new Error(`invalid blob key "${key}"`);
  const known = await stat(path).catch(() => undefined);
  if (known?.isFile()) return path;
  const bytes = await store.get(key);
  if (!bytes) return undefined;
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(tmp, bytes);
  await rename(tmp, path);
  return path;
}
