import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

/**
 * Blobs as files under `root` (the embedded default: DATA_DIR/uploads). Only processes that see the same
 * folder can read them — one machine, or several sharing one network file system mounted at the same path.
 */
export function createLocalBlobStore(root: string): BlobStore & { pathOf(key: string): string } {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertBlobKey(key);
    const path = resolve(base, ...key.split('/'));
    if (!path.startsWith(base + sep)) throw new Error(`invalid blob key "${key}"`);
    return path;
  };
  return {
    kind: 'local',
    pathOf,
    async put(key, bytes) {
      const path = pathOf(key);
      if ((await stat(path).catch(() => undefined))?.isFile()) return;
      await mkdir(dirname(path), { recursive: true });
      // Temp file + rename: a reader never sees half a file.
      const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
