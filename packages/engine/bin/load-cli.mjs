// Load the engine's CLI module (`src/cli.ts`) as fast as the installation allows.
//
// The engine is TypeScript run without a build step. Loading it file by file through tsx's
// loader costs ~0.25 s of CPU per process and again per worker thread (each file crosses to the
// loader thread to be resolved and transformed), which dominates short batches. So the first run
// bundles `src/cli.ts` and `src/cli-worker.ts` with esbuild (tsx's own dependency) into
// `node_modules/.cache/bahi-engine/` beside the engine, and later runs import that bundle as
// plain JavaScript. The bundle records a hash of every source file it was built from; any edit
// (or a checkout) makes the next run rebuild. Packages stay external, so they resolve exactly
// as they do from `src/`; workspace packages (`@bahi/*`, TypeScript too) are bundled in.
// Anything going wrong here (no esbuild, a read-only tree) falls back to tsx.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where bundles are cached: inside the engine's node_modules tree, so packages resolve. */
export const DEFAULT_CACHE_DIR = path.join(engineDir, 'node_modules', '.cache', 'bahi-engine');
const entries = ['src/cli.ts', 'src/cli-worker.ts'];

const hashFile = (file) => createHash('sha1').update(readFileSync(file)).digest('hex');

/** The cached bundle's directory when every file it was built from is unchanged, else null. */
export function currentBundle(cacheDir = DEFAULT_CACHE_DIR) {
  try {
    const manifest = JSON.parse(readFileSync(path.join(cacheDir, 'current.json'), 'utf8'));
    for (const [file, hash] of Object.entries(manifest.inputs)) {
      if (hashFile(path.resolve(engineDir, file)) !== hash) return null;
    }
    return path.join(cacheDir, manifest.dir);
  } catch {
    return null;
  }
}

/** Bundle the CLI into the cache and make it current; returns the bundle's directory. */
export async function buildBundle(cacheDir = DEFAULT_CACHE_DIR) {
  const manifestPath = path.join(cacheDir, 'current.json');
  const requireFromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = await import(pathToFileURL(requireFromTsx.resolve('esbuild')).href);
  mkdirSync(cacheDir, { recursive: true });
  const tmp = path.join(cacheDir, `tmp-${process.pid}-${Date.now()}`);
  try {
    const result = await esbuild.build({
      absWorkingDir: engineDir,
      entryPoints: entries,
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      metafile: true,
      logLevel: 'silent',
      plugins: [
        {
          name: 'external-packages',
          setup(build) {
            // npm packages stay imports (resolved from the cache, which sits inside the engine's
            // node_modules tree); the engine's own workspace packages are TypeScript: bundle them.
            build.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@bahi/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    const inputs = {};
    for (const file of Object.keys(result.metafile.inputs)) {
      const abs = path.resolve(engineDir, file);
      inputs[path.relative(engineDir, abs)] = hashFile(abs);
    }
    // Worker threads start here: like the main thread (see loadCli), they create mupdf's module
    // object before the bundle's hoisted `import 'mupdf'` runs.
    writeFileSync(
      path.join(tmp, 'worker.mjs'),
      "globalThis.$libmupdf_wasm_Module ??= {};\nawait import('./cli-worker.js');\n",
    );
    const key = createHash('sha1').update(JSON.stringify(inputs)).digest('hex').slice(0, 16);
    const dir = path.join(cacheDir, key);
    try {
      renameSync(tmp, dir);
    } catch {
      // Another process built the same sources first: use theirs.
      rmSync(tmp, { recursive: true, force: true });
    }
    const manifestTmp = `${manifestPath}.${process.pid}`;
    writeFileSync(manifestTmp, JSON.stringify({ dir: key, inputs }));
    renameSync(manifestTmp, manifestPath);
    pruneBundles(cacheDir, key);
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    esbuild.stop?.();
  }
}

/** How long an outdated bundle is kept: a process started from it may still load its chunks. */
const KEEP_OUTDATED_MS = 24 * 60 * 60 * 1000;

/** Remove bundles other than `current` that were built over a day ago (one per source edit). */
function pruneBundles(cacheDir, current) {
  try {
    for (const name of readdirSync(cacheDir)) {
      if (name === current || !/^[0-9a-f]{16}$|^tmp-/.test(name)) continue;
      const dir = path.join(cacheDir, name);
      if (Date.now() - statSync(dir).mtimeMs > KEEP_OUTDATED_MS)
        rmSync(dir, { recursive: true, force: true });
    }
  } catch {
    // Pruning is housekeeping; a failure costs disk space only.
  }
}

/** The `src/cli.ts` module: from the bundle when possible, else through tsx. */
export async function loadCli() {
  let dir = currentBundle();
  if (!dir) {
    try {
      dir = await buildBundle();
    } catch {
      dir = null;
    }
  }
  if (dir) {
    try {
      // mupdf hands this object to its WASM factory, which fills it with the exports that
      // src/pdf/mupdf-module.ts reads; in the bundle, `import 'mupdf'` runs before any of the
      // bundled module bodies, so the object has to exist before the bundle is imported.
      globalThis.$libmupdf_wasm_Module ??= {};
      return await import(pathToFileURL(path.join(dir, 'cli.js')).href);
    } catch {
      // A damaged cache: fall through to the sources.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  globalThis.$libmupdf_wasm_Module ??= {};
  return import('../src/cli.ts');
}
