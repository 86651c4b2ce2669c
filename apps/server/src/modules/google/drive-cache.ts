import { join } from 'node:path';
import type { Env } from '../../config/env.ts';

/** Where an organisation's downloaded Drive files are kept: DATA_DIR/google-drive/<org>/. */
export function getDriveCacheDir(env: Env, organizationId: string): string {
  return join(env.dataDir, 'google-drive', organizationId);
}
