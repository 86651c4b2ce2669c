#!/usr/bin/env node
// The `bahi` command. The engine is written in TypeScript; a fresh `npm ci` needs no build step
// before `npx bahi extract` works: `load-cli.mjs` runs a cached bundle of the sources (built on
// first use) or, failing that, the sources through tsx's loader.
import { loadCli } from './load-cli.mjs';

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
