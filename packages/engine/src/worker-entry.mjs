// Entry of an extraction worker thread: workers do not inherit the main thread's tsx loader,
// so register it here before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
// mupdf fills this object with its WASM exports, which pdf/text.ts reads (see pdf/mupdf-module.ts).
globalThis.$libmupdf_wasm_Module ??= {};
await import('./cli-worker.ts');
