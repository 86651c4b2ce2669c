// Entry of an extraction worker thread: workers do not inherit the main thread's tsx loader,
// so register it here before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./cli-worker.ts');
