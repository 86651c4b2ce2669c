import { opendir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { flowMessages } from '@bahi/contracts';
import { AppError } from '../../lib/app-error.ts';
import { type DocumentSource, explainUnsupportedFile, type SourceEntry } from './source.ts';

/** True when `child` is `root` or inside it (both already resolved). */
function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Resolves a user-given folder path to a real directory inside one of the operator's roots. Relative paths
 * are taken against the first root; `..`, absolute escapes and symlinks leading outside are refused because
 * the check runs on the realpath, after every link is followed.
 */
export async function resolveLocalFolder(roots: string[], input: string): Promise<string> {
  if (roots.length === 0)
    throw new AppError('validation', flowMessages.folderRootsMissing, {
      url: flowMessages.folderRootsMissing,
    });
  const realRoots: string[] = [];
  for (const root of roots) {
    try {
      realRoots.push(await realpath(root));
    } catch {
      // A configured root that does not exist simply confines nothing.
    }
  }
  const candidate = isAbsolute(input) ? input : join(roots[0]!, input);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    // Report escapes before existence, so probing outside the roots reveals nothing.
    const lexicalInside = roots.some((r) => isInside(r, candidate));
    const message = lexicalInside ? flowMessages.folderNotFound : flowMessages.folderOutsideRoots;
    throw new AppError('validation', message, { url: message });
  }
  if (!realRoots.some((root) => isInside(root, real))) {
    throw new AppError('validation', flowMessages.folderOutsideRoots, {
      url: flowMessages.folderOutsideRoots,
    });
  }
  return real;
}

/** Options of the local folder source. */
export interface LocalFolderOptions {
  /** Real path of the folder (from `resolveLocalFolder`). */
  dir: string;
  /** The operator's roots; every file's realpath is re-checked against them. */
  roots: string[];
  maxBytes: number;
  maxFiles: number;
}

/**
 * Lists a local folder recursively with `opendir` (streamed: memory stays flat for thousands of files).
 * Symlinks are followed only when their target stays inside the roots; hidden files are ignored.
 */
export function createLocalFolderSource(options: LocalFolderOptions): DocumentSource {
  return {
    kind: 'local',
    async *list(): AsyncIterable<SourceEntry> {
      const realRoots = await Promise.all(options.roots.map((r) => realpath(r).catch(() => r)));
      let files = 0;
      const stack = [options.dir];
      // Symlinked directories could form a cycle; each real directory is listed once.
      const visited = new Set<string>();
      while (stack.length > 0) {
        const dir = stack.pop()!;
        if (visited.has(dir)) continue;
        visited.add(dir);
        const handle = await opendir(dir);
        const subdirs: string[] = [];
        for await (const entry of handle) {
          if (entry.name.startsWith('.')) continue;
          const full = join(dir, entry.name);
          const rel = relative(options.dir, full);
          let real = full;
          if (entry.isSymbolicLink()) {
            try {
              real = await realpath(full);
            } catch {
              yield { skipped: { name: rel, reason: 'Broken link' } };
              continue;
            }
            if (!realRoots.some((root) => isInside(root, real))) {
              yield { skipped: { name: rel, reason: 'Links outside the allowed folders are not followed' } };
              continue;
            }
          }
          const info = await stat(real);
          if (info.isDirectory()) {
            subdirs.push(real);
            continue;
          }
          if (!info.isFile()) continue;
          const reason = explainUnsupportedFile(entry.name, info.size, options.maxBytes);
          if (reason) {
            yield { skipped: { name: rel, reason } };
            continue;
          }
          if (files >= options.maxFiles) {
            yield {
              skipped: {
                name: rel,
                reason: `Only the first ${options.maxFiles} files of a folder are processed per run`,
              },
            };
            continue;
          }
          files++;
          yield {
            file: {
              sourceId: rel.split(sep).join('/'),
              name: entry.name,
              path: real,
              size: info.size,
              modifiedAt: info.mtime,
            },
          };
        }
        // Sorted so runs see a stable order; reversed because the stack pops from the end.
        stack.push(...subdirs.sort().reverse());
      }
    },
  };
}
