#!/usr/bin/env node
// Lists the test files whose outcome can depend on the database engine: those that reach the test
// database (src/test/test-db.ts, directly or through another module) or read DATABASE_URL. CI runs the
// whole suite on the embedded database (PGlite) and then only these on PostgreSQL: the other files never
// open a database, so running them twice would only double CI's time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['apps/server/src', 'apps/server/scale'].map((p) => join(root, p));
const DB_ENTRY = join(root, 'apps/server/src/test/test-db.ts');

/** Every .ts file under a folder (node_modules excluded). */
function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const files = roots.flatMap((dir) => walk(dir));
const IMPORT =
  /(?:import|export)[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative imports of a file, resolved to .ts paths (ESM sources spell them .js). */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2]).replace(/\.js$/, '');
    const base = resolve(dirname(file), spec);
    found.push(base.endsWith('.ts') ? base : `${base}.ts`, join(base, 'index.ts'));
  }
  return { text, found };
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));
const memo = new Map();
/** Whether a file reaches the test database (cycles count as not reaching through the cycle). */
function reachesDb(file) {
  if (file === DB_ENTRY) return true;
  if (memo.has(file)) return memo.get(file);
  memo.set(file, false);
  const node = graph.get(file);
  const yes = !!node && (/DATABASE_URL/.test(node.text) || node.found.some((dep) => reachesDb(dep)));
  memo.set(file, yes);
  return yes;
}

const tests = files.filter((f) => f.endsWith('.test.ts') && reachesDb(f));
process.stdout.write(`${tests.map((f) => relative(root, f)).join('\n')}\n`);
