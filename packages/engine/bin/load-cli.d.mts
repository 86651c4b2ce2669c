/** Cache directory of CLI bundles (inside the engine's node_modules tree). */
export const DEFAULT_CACHE_DIR: string;
/** The cached bundle's directory when every file it was built from is unchanged, else null. */
export function currentBundle(cacheDir?: string): string | null;
/** Bundle the CLI into `cacheDir` and make it current; returns the bundle's directory. */
export function buildBundle(cacheDir?: string): Promise<string>;
/** The `src/cli.ts` module: from the cached bundle when possible, else through tsx. */
export function loadCli(): Promise<typeof import('../src/cli.ts')>;
