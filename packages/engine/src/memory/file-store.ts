import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentType } from '../types.ts';
import type { IssuerMemory, MemoryStore } from './types.ts';

/** A file name for a key: its type and key with anything but letters and digits replaced. */
function fileFor(dir: string, type: DocumentType, key: string): string {
  return join(dir, `${type}-${key.replace(/[^A-Za-z0-9]+/g, '_')}.json`);
}

/**
 * Memories in a folder, one JSON file per issuer and document type (`bahi extract --memory DIR`,
 * `bahi learn --memory DIR`). Written to a temporary name and renamed, so a crash never leaves
 * half a file; an unreadable file is treated as no memory rather than stopping the extraction.
 */
export function createFileMemoryStore(dir: string): MemoryStore {
  return {
    async recall(type, keys) {
      for (const key of keys) {
        try {
          const parsed = JSON.parse(await readFile(fileFor(dir, type, key), 'utf8')) as IssuerMemory;
          if (parsed?.version === 1 && parsed.type === type) return parsed;
        } catch {
          // No memory under this key (or a damaged file): try the next key.
        }
      }
      return null;
    },
    async save(memory) {
      await mkdir(dir, { recursive: true });
      const file = fileFor(dir, memory.type, memory.key);
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(memory, null, 1)}\n`);
      await rename(tmp, file);
    },
  };
}
