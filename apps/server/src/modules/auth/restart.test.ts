import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTestDatabaseUrl } from '../../test/test-db.ts';
import { startTestServer } from '../../test/test-server.ts';

// Sessions and data survive a restart with nothing configured: PGlite keeps its files in DATA_DIR/db and
// the generated auth secret in DATA_DIR/secret. (PGlite only: on PostgreSQL the data lives elsewhere.)
describe.skipIf(Boolean(readTestDatabaseUrl()))('restart on the same DATA_DIR', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps users, organisations and session cookies valid', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bahi-restart-'));
    const first = await startTestServer({ dataDir, keepData: true });
    const user = await first.createOnboardedUser('Persistent Pvt Ltd');
    await first.close();

    const second = await startTestServer({ dataDir, keepData: true });
    try {
      const browser = second.createClient();
      for (const [k, v] of user.client.cookies) browser.cookies.set(k, v);
      const me = await browser.get('/api/me');
      expect(me.status).toBe(200);
      expect(me.body.organization.legalName).toBe('Persistent Pvt Ltd');
    } finally {
      await second.close();
    }
  });
});
