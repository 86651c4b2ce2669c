import type { Integrations } from '@bahi/contracts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { getGoogleStatus } from '../google/google.service.ts';

/**
 * The integrations page's state. Google is "configured" when the server has OAuth client credentials and
 * "connected" when the caller's organisation holds a working Google grant (see `modules/google`).
 */
export async function getIntegrations(
  db: Db,
  env: Env,
  organizationId: string | null,
): Promise<Integrations> {
  const { configured, connected, email, scopes, note } = await getGoogleStatus(db, env, organizationId);
  return { google: { configured, connected, email, scopes, note } };
}
