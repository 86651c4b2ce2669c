import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';

// The GSTR-2B upload over HTTP: multipart in, 201 for a new file, 200 for the same bytes again, a
// refusal in words for a file that is not a GSTR-2B, and the other organisation seeing nothing.

let t: TestServer;
let client: TestClient;
let other: TestClient;

const TWO_B = JSON.stringify({
  data: {
    rtnprd: '102025',
    docdata: {
      b2b: [
        {
          ctin: '29AAHCN9876P1ZX',
          trdnm: 'Made-up Supplier',
          inv: [
            { inum: 'MS/1', dt: '03-10-2025', val: 118, txval: 100, igst: 18, cgst: 0, sgst: 0, cess: 0 },
          ],
        },
      ],
    },
  },
});

const send = (c: TestClient, text: string, name = 'GSTR2B_102025.json') => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'application/json' }), name);
  return c.request('/api/gst/2b', { method: 'POST', body: form });
};

beforeAll(async () => {
  t = await startTestServer();
  client = (await t.createOnboardedUser('Kaveri Mills')).client;
  other = (await t.createOnboardedUser('Other Mills')).client;
});

afterAll(async () => {
  await t?.close();
});

describe('POST /api/gst/2b', () => {
  it('stores a new file (201), changes nothing for the same bytes (200), refuses what is not a GSTR-2B', async () => {
    const first = await send(client, TWO_B);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ created: true, file: { period: '102025', documents: 1 } });
    const again = await send(client, TWO_B, 'copy.json');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, created: false });
    const wrong = await send(client, '{"rows": []}', 'other.json');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/not a GSTR-2B/);

    const view = await client.get('/api/gst');
    expect(view.body).toMatchObject({ periods: ['102025'], period: '102025' });
    expect(view.body.rows).toHaveLength(1);
    expect((await other.get('/api/gst')).body).toMatchObject({ periods: [], rows: [] });
  });

  it('answers the workbooks as .xlsx', async () => {
    const res = await client.raw('/api/gst/ims.xlsx?period=102025');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain('IMS%20actions%2010-2025.xlsx');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect((await client.raw('/api/gst.xlsx?period=13-2025')).status).toBe(400);
  });
});
