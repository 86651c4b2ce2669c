// Worker-thread entry of the extraction pool. Node 20 does not hand the parent's module hooks to workers,
// so each worker registers tsx itself before loading the TypeScript implementation (as bin/bahi.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./pool-worker-impl.ts');
