#!/usr/bin/env node
// The `bahi` command. The engine is written in TypeScript and run through tsx's loader,
// so a fresh `npm ci` needs no build step before `npx bahi extract` works.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
