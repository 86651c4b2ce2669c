import { opendir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { flowMessages } from '@bahi/contracts';
import { AppError } from '../../lib/app-error.ts';
import { listFolderRoots } from './folder-roots.ts';
import {
  type DocumentSource,
  explainUnsupportedFile,
  fingerprintListing,
  type SourceAdapter,
  type SourceContext,
  type SourceEntry,
} from './source.ts';

/** True when `child` is `root` or inside it (both already resolved). */
function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** What a resolved local path must be. */
export type LocalPathKind = 'folder' | 'file' | 'any';

/**
 * A file with more than one hard link may be a link to a file outside the roots (a hard link, unlike a
 * symlink, cannot be told from the original), so it is not read.
 */
export function isHardLinked(info: { nlink: number; isFile(): boolean }): boolean {
  return info.isFile() && info.nlink > 1;
}

/** Reason shown for a file skipped because it is hard-linked. */
export const HARD_LINK_REASON = 'This file is a hard link to another file; copy it into the folder instead';

/**
 * Resolves a user-given path to a real folder or file inside one of the roots granted to the caller's
 * organisation. Relative paths are taken against the first root; `..`, absolute escapes and symlinks
 * leading outside are refused because the check runs on the realpath, after every link is followed. A
 * path outside the caller's roots gets the same answer as one that does not exist, so nobody learns
 * what another organisation's folders hold.
 */
export async function resolveLocalPath(roots: string[], input: string, kind: LocalPathKind): Promise<string> {
  const refuse = (message: string): never => {
    throw new AppError('validation', message, { url: message });
  };
  if (roots.length === 0) refuse(flowMessages.folderRootsMissing);
  const realRoots: string[] = [];
  for (const root of roots) {
    try {
      realRoots.push(await realpath(root));
    } catch {
      // A configured root that does not exist simply confines nothing.
    }
  }
  const candidate = isAbsolute(input) ? input : join(roots[0]!, input);
  const real = await realpath(candidate).catch(() => null);
  if (!real || !realRoots.some((root) => isInside(root, real))) return refuse(flowMessages.folderNotFound);
  const info = await stat(real).catch(() => null);
  if (!info) return refuse(flowMessages.folderNotFound);
  if (kind === 'folder' && !info.isDirectory()) refuse(flowMessages.folderIsFile);
  if (kind === 'file' && !info.isFile()) refuse(flowMessages.fileIsFolder);
  if (isHardLinked(info)) refuse(HARD_LINK_REASON);
  return real;
}

/** Options of the local folder source. */
export interface LocalFolderOptions {
  /** Real path of the folder (from `resolveLocalPath`). */
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
          if (isHardLinked(info)) {
            yield { skipped: { name: rel, reason: HARD_LINK_REASON } };
            continue;
          }
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

/** The organisation's roots and a flow's folder resolved inside them (a validation error otherwise). */
async function resolveFlowFolder(
  ctx: SourceContext,
  organizationId: string,
  url: string,
): Promise<{ roots: string[]; dir: string }> {
  const roots = await listFolderRoots(ctx.db, ctx.env, organizationId);
  return { roots, dir: await resolveLocalPath(roots, url, 'folder') };
}

/**
 * One local file as a run's whole source (`POST /api/process-url` with a path): resolved inside the
 * organisation's roots like a folder is, and listed as the only entry.
 */
export function openLocalFile(
  ctx: SourceContext,
  file: { organizationId: string; path: string; name: string },
): DocumentSource {
  return {
    kind: 'local',
    async *list(): AsyncIterable<SourceEntry> {
      const roots = await listFolderRoots(ctx.db, ctx.env, file.organizationId);
      const real = await resolveLocalPath(roots, file.path, 'file');
      const info = await stat(real);
      yield {
        file: {
          sourceId: file.path,
          name: file.name || basename(real),
          path: real,
          size: info.size,
          modifiedAt: info.mtime,
        },
      };
    },
  };
}

/**
 * The `local` source kind: a folder under the roots granted to the organisation (`BAHI_FOLDER_ROOTS`),
 * checked when the flow is saved, before each run and as each run lists it. Documents are read where the
 * scan found them.
 */
export const localSource: SourceAdapter = {
  async validate(ctx, { organizationId, input }) {
    await resolveFlowFolder(ctx, organizationId, input.url);
    return input;
  },
  async checkRunnable(ctx, { organizationId, input }) {
    await resolveFlowFolder(ctx, organizationId, input.url);
  },
  async open(ctx, { organizationId, input }) {
    const { roots, dir } = await resolveFlowFolder(ctx, organizationId, input.url);
    const { uploadMaxBytes: maxBytes, maxFiles } = ctx.env.flows;
    return createLocalFolderSource({ dir, roots, maxBytes, maxFiles });
  },
  locate: async (_ctx, doc) => doc.sourcePath ?? '',
  servedFrom: (ctx, doc) => listFolderRoots(ctx.db, ctx.env, doc.organizationId),
  folderName: (url) => basename(url),
  // A watched folder: its listing's fingerprint changes when a file is added or replaced.
  watch: async (ctx, source) => fingerprintListing(await localSource.open(ctx, source)),
};
