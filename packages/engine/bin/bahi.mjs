#!/usr/bin/env node
// The `bahi` command. The engine is written in TypeScript; a fresh `npm ci` needs no build step
// before `npx bahi extract` works: `load-cli.mjs` runs a cached bundle of the sources (built on
// first use) or, failing that, the sources through tsx's loader.
import v8 from 'node:v8';
import { loadCli } from './load-cli.mjs';

// A CLI run is short: by default V8 optimises every function that has run a little with
// TurboFan, and most of that compilation never pays back within a batch (−25% CPU on the dev
// text-layer PDFs with a larger budget). Hot loops — the OCR pre-processing over millions of
// pixels — still exhaust it at once and are optimised as before. Set before any engine code is
// compiled; worker threads inherit it.
v8.setFlagsFromString('--interrupt-budget=1000000');

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
