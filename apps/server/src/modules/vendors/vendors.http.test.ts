import { randomUUID } from 'node:crypto';
import { paymentTermsDaysMessage } from '@bahi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';

let t: TestServer;
let client: TestClient;

beforeAll(async () => {
  t = await startTestServer();
  client = (await t.createOnboardedUser('Asha Traders')).client;
});

afterAll(async () => {
  await t?.close();
});

describe('PATCH /api/vendors/:id agreed payment days', () => {
  it('refuses 60 days with the MSMED Act limit under the field', async () => {
    const res = await client.request(`/api/vendors/${randomUUID()}`, {
      method: 'PATCH',
      json: { paymentTermsDays: 60 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'validation', fields: { paymentTermsDays: paymentTermsDaysMessage } },
    });
  });

  it('takes 45 days past validation (this vendor does not exist, so the answer is 404)', async () => {
    const res = await client.request(`/api/vendors/${randomUUID()}`, {
      method: 'PATCH',
      json: { paymentTermsDays: 45 },
    });
    expect(res.status).toBe(404);
  });
});
