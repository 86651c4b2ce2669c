import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';

// The e-mail source and the trigger over HTTP: the mailbox password goes in and never comes back out (not
// on create, list, update or the intake view), an update without it keeps it, and another organisation
// cannot read a flow's intake.

let t: TestServer;
let a: TestClient;
let b: TestClient;

beforeAll(async () => {
  t = await startTestServer({ env: { EXTRACT_CONCURRENCY: '1' } });
  a = (await t.createOnboardedUser('Asha Traders')).client;
  b = (await t.createOnboardedUser('Other Org')).client;
});

afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'abcd efgh ijkl mnop';
const mailFlow = (password?: string) => ({
  name: 'Vendor mail',
  types: ['INVOICE'],
  io: {
    input: {
      kind: 'email',
      url: '',
      folderName: '',
      mail: { host: 'imap.mail.example', user: 'ap@buyer.example', ...(password ? { password } : {}) },
    },
    output: { kind: 'xlsx', sheetId: '', sheetName: 'Bills' },
  },
  trigger: { kind: 'daily', time: '07:30' },
});

describe('e-mail flows over HTTP', () => {
  it('stores the password encrypted, never sends it back, and keeps it on an update without one', async () => {
    expect((await a.post('/api/workflows', mailFlow())).status).toBe(400);
    const created = await a.post('/api/workflows', mailFlow(PASSWORD));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.io.input.mail).toMatchObject({
      host: 'imap.mail.example',
      port: 993,
      hasPassword: true,
    });
    expect(created.body.trigger).toEqual({ kind: 'daily', time: '07:30', timeZone: 'Asia/Kolkata' });
    expect(created.body.nextRunAt).toBeGreaterThan(Date.now());
    const listed = await a.get('/api/workflows');
    const updated = await a.put(`/api/workflows/${id}`, { ...mailFlow(), name: 'Vendor mail 2' });
    expect(updated.status).toBe(200);
    expect(updated.body.io.input.mail.hasPassword).toBe(true);
    const intake = await a.get(`/api/flows/${id}/intake`);
    expect(intake.status).toBe(200);
    expect(intake.body).toMatchObject({ trigger: { kind: 'daily' }, sourceError: null, items: [] });
    for (const body of [created.body, listed.body, updated.body, intake.body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('passwordEnc');
      expect(text).not.toContain('"password":');
    }
    expect((await b.get(`/api/flows/${id}/intake`)).status).toBe(404);
  });

  it('refuses a schedule more often than every 5 minutes, and a time of day that does not exist', async () => {
    const tooOften = await a.post('/api/workflows', {
      ...mailFlow(PASSWORD),
      trigger: { kind: 'every', minutes: 1 },
    });
    expect(tooOften.status).toBe(400);
    const badTime = await a.post('/api/workflows', {
      ...mailFlow(PASSWORD),
      trigger: { kind: 'daily', time: '25:00' },
    });
    expect(badTime.status).toBe(400);
  });
});
