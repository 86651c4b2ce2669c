import { request } from 'node:http';
import { UNSAFE_TEXT_MESSAGE } from '@bahi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, flows, vendors } from '../db/schema/index.ts';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../test/test-server.ts';

// Hostile text and bodies over HTTP against the real server (#33).

let t: TestServer;
let a: TestClient;
let flowId: string;
let documentId: string;
let vendorId: string;

const NUL = 'Tata\u0000Steel';
const LONE = 'Tata \uD83D Steel';

beforeAll(async () => {
  t = await startTestServer();
  const user = await t.createOnboardedUser('Asha Traders');
  a = user.client;
  const [vendor] = await t.server.db
    .insert(vendors)
    .values({ organizationId: user.orgId, name: 'Vendor One' })
    .returning();
  vendorId = vendor!.id;
  const [flow] = await t.server.db
    .insert(flows)
    .values({ organizationId: user.orgId, name: 'Invoices', status: 'success' })
    .returning();
  flowId = flow!.id;
  const [document] = await t.server.db
    .insert(documents)
    .values({
      organizationId: user.orgId,
      flowId,
      sourceId: 's1',
      contentHash: 'h1',
      fileName: 'inv.pdf',
      status: 'needs_review',
      processedAt: new Date(),
    })
    .returning();
  documentId = document!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('text a database cannot store', () => {
  it('gets a field message, not a 500, wherever a person types', async () => {
    const cases: Array<{
      name: string;
      send: (
        bad: string,
      ) => Promise<TestResponse<{ error?: { code: string; fields?: Record<string, string> } }>>;
      field: string;
    }> = [
      {
        name: 'a correction',
        send: (bad) =>
          a.request(`/api/documents/${documentId}`, {
            method: 'PATCH',
            json: { fields: { vendorName: bad } },
          }),
        field: 'fields.vendorName',
      },
      {
        name: 'a line cell',
        send: (bad) =>
          a.request(`/api/documents/${documentId}`, {
            method: 'PATCH',
            json: { lines: [{ line: 1, field: 'description', value: bad }] },
          }),
        field: 'lines.0.value',
      },
      {
        name: 'a vendor display name',
        send: (bad) => a.request(`/api/vendors/${vendorId}`, { method: 'PATCH', json: { displayName: bad } }),
        field: 'displayName',
      },
      {
        name: 'an override reason',
        send: (bad) =>
          a.post(`/api/reconcile/invoices/${documentId}/override`, { reason: `paid already ${bad}` }),
        field: 'reason',
      },
      {
        name: 'a flow name',
        send: (bad) =>
          a.post('/api/workflows', {
            name: bad,
            types: ['INVOICE'],
            io: {
              input: { kind: 'upload', url: '', folderName: '' },
              output: { kind: 'xlsx', sheetId: '', sheetName: '' },
            },
          }),
        field: 'name',
      },
      {
        name: 'a flow rename',
        send: (bad) => a.request(`/api/workflows/${flowId}`, { method: 'PUT', json: { name: bad } }),
        field: 'name',
      },
      {
        name: 'the review-queue search',
        send: (bad) => a.get(`/api/review?q=${encodeURIComponent(bad)}`),
        field: 'q',
      },
    ];
    for (const { name, send, field } of cases) {
      // A lone surrogate cannot be percent-encoded; the search takes the NUL only.
      for (const bad of field === 'q' ? [NUL] : [NUL, LONE]) {
        const res = await send(bad);
        expect({ name, status: res.status }).toEqual({ name, status: 400 });
        expect(res.body.error).toMatchObject({
          code: 'validation',
          fields: { [field]: UNSAFE_TEXT_MESSAGE },
        });
      }
    }
    // Nothing was stored.
    expect((await a.get(`/api/vendors/${vendorId}`)).body.displayName ?? null).toBeNull();
  });
});

/**
 * Sends `size` bytes of a JSON-looking body to `path` in 1 MB chunks, declaring its length or not
 * (chunked), and stops writing once the server answers: the status and how many bytes went out.
 */
function sendHugeBody(
  path: string,
  { size, declareLength }: { size: number; declareLength: boolean },
): Promise<{ status: number; sent: number; ms: number }> {
  const url = new URL(path, t.url);
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: new URL(t.url).origin,
        ...(declareLength ? { 'content-length': String(size + 2) } : {}),
      },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent, ms: performance.now() - started });
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.write('{"');
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('request bodies are bounded before they are read', () => {
  it('refuses a 200 MB sign-in or sign-up body with 413 without buffering it', async () => {
    const MB = 1024 * 1024;
    global.gc?.();
    const before = process.memoryUsage().rss;
    for (const path of ['/api/auth/sign-in/email', '/api/auth/sign-up/email']) {
      for (const declareLength of [true, false]) {
        const { status, sent, ms } = await sendHugeBody(path, { size: 200 * MB, declareLength });
        expect({ path, declareLength, status }).toEqual({ path, declareLength, status: 413 });
        // Answered long before 200 MB went out: the server stopped at the limit (or at the header).
        expect(sent).toBeLessThan(64 * MB);
        expect(ms).toBeLessThan(10_000);
      }
    }
    // The server (this process) did not keep the bodies.
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * MB);
    // A normal sign-in still works.
    const user = await t.createUser('After Bodies');
    const res = await t.createClient().signIn({ email: user.email, password: user.password });
    expect(res.status).toBe(200);
  }, 60_000);

  it('refuses a chunked upload past its limit with 413 without holding it in memory', async () => {
    const MB = 1024 * 1024;
    const small = await startTestServer();
    try {
      const user = await small.createOnboardedUser('Uploads');
      const [flow] = await small.server.db
        .insert(flows)
        .values({ organizationId: user.orgId, name: 'Inbox', status: 'inactive' })
        .returning();
      // 25 MB × 10 files a request = a 250 MB limit; 270 MB of one file part, chunked, with the session cookie.
      const boundary = 'bahi-boundary';
      const head = `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n`;
      const chunk = new Uint8Array(MB).fill(0x61);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(head));
        },
        pull(c) {
          if (sent >= 270 * MB) {
            c.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
            c.close();
            return;
          }
          sent += MB;
          c.enqueue(chunk);
        },
      });
      global.gc?.();
      const before = process.memoryUsage().rss;
      const res = await fetch(`${small.url}/api/flows/${flow!.id}/uploads`, {
        method: 'POST',
        headers: {
          cookie: user.client.cookieHeader(),
          origin: new URL(small.url).origin,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body,
        duplex: 'half',
      } as RequestInit).catch((error: unknown) => error);
      if (res instanceof Response) {
        expect(res.status).toBe(413);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
      }
      // Counted as it streamed, never held: the process grew far less than the 250 MB it read.
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('refuses a NUL in a sign-up name in words, not as a database error', async () => {
    const res = await t.createClient().request('/api/auth/sign-up/email', {
      method: 'POST',
      json: { name: NUL, email: `nul-${Date.now()}@example.com`, password: 'correct horse battery staple' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation', fields: { name: UNSAFE_TEXT_MESSAGE } });
  });
});
