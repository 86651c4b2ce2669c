import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';
import { readFixture } from './test-support.ts';

// The whole path a user takes, over HTTP against the real server: session cookie, real pg-boss queue,
// real worker-thread pool running the real engine, real workbook.

let t: TestServer;
let roots: string;
let a: TestClient;
let b: TestClient;

const uploadFlow = {
  name: 'Vendor invoices',
  types: ['INVOICE'],
  io: {
    input: { kind: 'upload', url: '', folderName: '' },
    output: { kind: 'xlsx', sheetId: '', sheetName: 'Invoices' },
  },
};

beforeAll(async () => {
  roots = await mkdtemp(join(tmpdir(), 'bahi-roots-'));
  await mkdir(join(roots, 'inbox'));
  t = await startTestServer({ env: { BAHI_FOLDER_ROOTS: roots, EXTRACT_CONCURRENCY: '1' } });
  a = (await t.createOnboardedUser('Asha Traders')).client;
  b = (await t.createOnboardedUser('Other Org')).client;
});

afterAll(async () => {
  await t?.close();
  await rm(roots, { recursive: true, force: true });
});

/** Reads a run's server-sent events until `end`; returns the events in order. */
async function readEvents(
  client: TestClient,
  runId: string,
): Promise<Array<{ event: string; data: unknown }>> {
  const response = await client.raw(`/api/runs/${runId}/events`);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('event:'))
    .map((block) => {
      const event = /event: (.*)/.exec(block)![1]!;
      const data = JSON.parse(/data: (.*)/.exec(block)![1]!);
      return { event, data };
    });
}

describe('flows over HTTP', () => {
  let flowId: string;
  let runId: string;

  it('requires a session', async () => {
    expect((await t.createClient().get('/api/workflows')).status).toBe(401);
  });

  it('creates and lists flows in the original JSON shape, scoped to the organisation', async () => {
    const created = await a.post('/api/workflows', uploadFlow);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Vendor invoices',
      types: ['INVOICE'],
      status: 'inactive',
      lastRunAt: null,
    });
    expect(typeof created.body.createdAt).toBe('number');
    flowId = created.body.id;
    expect((await a.get('/api/workflows')).body.map((f: { id: string }) => f.id)).toEqual([flowId]);

    expect((await b.get('/api/workflows')).body).toEqual([]);
    expect((await b.put(`/api/workflows/${flowId}`, { name: 'mine now' })).status).toBe(404);
    expect((await b.request(`/api/workflows/${flowId}`, { method: 'DELETE' })).status).toBe(404);
    expect((await b.get(`/api/flows/${flowId}/sheet`)).status).toBe(404);
    expect((await b.post(`/api/flows/${flowId}/runs`)).status).toBe(404);

    const renamed = await a.put(`/api/workflows/${flowId}`, { name: 'Vendor invoices (Pune)' });
    expect(renamed.body.name).toBe('Vendor invoices (Pune)');
  });

  it('validates Drive links and local folders by the product rules', async () => {
    const badDrive = await a.post('/api/workflows', {
      ...uploadFlow,
      io: { ...uploadFlow.io, input: { kind: 'drive', url: 'https://example.com/folder/1', folderName: '' } },
    });
    expect(badDrive.status).toBe(400);
    expect(badDrive.body.error.message).toBe('Invalid Google Drive URL. Provide a folder or file link.');

    const drive = await a.post('/api/workflows', {
      ...uploadFlow,
      name: 'Drive',
      io: {
        ...uploadFlow.io,
        input: {
          kind: 'drive',
          url: 'https://drive.google.com/drive/folders/1AbCdEfGhIjKlMnOp',
          folderName: '',
        },
      },
    });
    // This server has no Google client: a Drive source is refused at once, in words, not at the third click.
    expect(drive.status).toBe(400);
    expect(drive.body.error.message).toMatch(/^Google is not set up on this server/);
    expect(drive.body.error.fields).toEqual({ url: expect.stringMatching(/^Google is not set up/) });

    const outside = await a.post('/api/workflows', {
      ...uploadFlow,
      io: { ...uploadFlow.io, input: { kind: 'local', url: `${roots}/../`, folderName: '' } },
    });
    expect(outside.status).toBe(400);
    const inside = await a.post('/api/workflows', {
      ...uploadFlow,
      name: 'Local inbox',
      io: { ...uploadFlow.io, input: { kind: 'local', url: join(roots, 'inbox'), folderName: 'inbox' } },
    });
    expect(inside.status).toBe(201);

    // The root is the first organisation's (a bare BAHI_FOLDER_ROOTS entry): another organisation on the
    // same server can neither save a flow on it nor process a file from it by path.
    const other = await b.post('/api/workflows', {
      ...uploadFlow,
      io: { ...uploadFlow.io, input: { kind: 'local', url: join(roots, 'inbox'), folderName: 'inbox' } },
    });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/No local folders are open to your organisation/);
    await writeFile(join(roots, 'inbox', 'asha-invoice.pdf'), await readFixture('invoice-018.pdf'));
    const byPath = await b.post('/api/process-url', {
      url: join(roots, 'inbox', 'asha-invoice.pdf'),
      type: 'INVOICE',
    });
    expect(byPath.status).toBe(400);
    expect(byPath.body.error.message).toMatch(/No local folders are open to your organisation/);
  });

  it('uploads files (multipart) into the flow inbox', async () => {
    const form = new FormData();
    form.append('files', new Blob([Buffer.from(await readFixture('invoice-018.pdf'))]), 'invoice-018.pdf');
    form.append('files', new Blob([Buffer.from(await readFixture('corrupt.pdf'))]), 'corrupt.pdf');
    form.append('files', new Blob(['hello']), 'readme.txt');
    const response = await a.request(`/api/flows/${flowId}/uploads`, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    expect(response.body.stored.map((s: { fileName: string }) => s.fileName).sort()).toEqual([
      'corrupt.pdf',
      'invoice-018.pdf',
    ]);
    expect(response.body.skipped[0].name).toBe('readme.txt');
    expect((await a.get(`/api/flows/${flowId}/uploads`)).body.items).toHaveLength(2);
    // Stored files and their folders are the server's alone (0600 / 0700).
    const entries = await readdir(join(t.dataDir, 'uploads'), { recursive: true, withFileTypes: true });
    expect(entries.length).toBeGreaterThan(2);
    for (const e of entries) {
      const mode = (await stat(join(e.parentPath, e.name))).mode;
      expect(mode & 0o077, `${e.name} ${(mode & 0o777).toString(8)}`).toBe(0);
    }
  });

  it('refuses a zip bomb whole: nothing stored, nothing left on disk', async () => {
    // The probe's bomb: eight entries of 24 MB zeros (each under the 25 MB file limit) in ~200 KB.
    const zeros = new Uint8Array(24 * 1024 * 1024);
    const bomb = zipSync(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`po-${i}.pdf`, zeros])));
    expect(bomb.length).toBeLessThan(300_000);
    const before = await readdir(join(t.dataDir, 'uploads'), { recursive: true });
    const form = new FormData();
    form.append('files', new Blob([Buffer.from(bomb)]), 'purchase-orders.zip');
    const response = await a.request(`/api/flows/${flowId}/uploads`, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    expect(response.body.stored).toEqual([]);
    expect(response.body.skipped).toEqual([
      { name: 'purchase-orders.zip', reason: expect.stringMatching(/more than 100 times its size/) },
    ]);
    expect(await readdir(join(t.dataDir, 'uploads'), { recursive: true })).toEqual(before);
    expect(await readdir(join(t.dataDir, 'tmp'))).toEqual([]);
    expect((await a.get(`/api/flows/${flowId}/uploads`)).body.items).toHaveLength(2);
  });

  it('runs on the real queue and streams progress until the end', async () => {
    const started = await a.post(`/api/flows/${flowId}/runs`);
    expect(started.status).toBe(202);
    runId = started.body.id;
    const second = await a.post('/api/workflow/process-folder', { workflowId: flowId });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('run_in_progress');

    const events = await readEvents(a, runId);
    expect(events.at(-1)!.event).toBe('end');
    const end = events.at(-1)!.data as { status: string; counts: { total: number; failed: number } };
    expect(end).toMatchObject({ status: 'succeeded', counts: { total: 2, failed: 1 } });
    expect(events.filter((e) => e.event === 'progress').length).toBeGreaterThanOrEqual(1);

    const run = await a.get(`/api/runs/${runId}`);
    expect(run.body.status).toBe('succeeded');
    expect((await b.get(`/api/runs/${runId}`)).status).toBe(404);
    const flows = await a.get('/api/workflows');
    const flow = flows.body.find((f: { id: string }) => f.id === flowId);
    expect(flow.status).toBe('success');
    expect(flow.lastRunAt).toBeGreaterThan(0);
    const history = await a.get(`/api/flows/${flowId}/runs`);
    expect(history.body.items[0].id).toBe(runId);
  });

  it('lists documents with plain-words failures and serves the stored file', async () => {
    const list = await a.get(`/api/flows/${flowId}/documents`);
    expect(list.body.total).toBe(2);
    const failed = list.body.items.find((d: { status: string }) => d.status === 'failed');
    expect(failed.error.message).toMatch(/could not be read|empty/);
    const good = list.body.items.find((d: { status: string }) => d.status !== 'failed');
    const file = await a.raw(good.fileUrl);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(await readFixture('invoice-018.pdf'));
    expect((await b.raw(good.fileUrl)).status).toBe(404);
    const detail = await a.get(`/api/documents/${good.id}`);
    expect(detail.body.extraction.fields.documentNumber).toBe('TI-01650');
  });

  it('shows the sheet and downloads it as .xlsx and .csv', async () => {
    const view = await a.get(`/api/flows/${flowId}/sheet?tab=documents`);
    expect(view.body.total).toBe(1);
    expect(view.body.rows[0].documentNumber).toBe('TI-01650');
    const xlsx = await a.raw(`/api/flows/${flowId}/sheet.xlsx`);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    expect(workbook.getWorksheet('Documents')!.getRow(2).getCell(3).value).toBe('TI-01650');
    const csv = await a.raw(`/api/flows/${flowId}/sheet.csv?tab=lines`);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toContain('Document No.,File Name,Line No.,Description');
    expect(text).toContain('TI-01650,invoice-018.pdf,1,');
  });

  it('counts the run on the dashboard and in the bell', async () => {
    const dashboard = await a.get('/api/dashboard');
    expect(dashboard.body.stats.documentsProcessed).toBe(1);
    const kinds = dashboard.body.recentActivity.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['flow.run.finished', 'flow.created']));
    const bell = await a.get('/api/notifications');
    expect(bell.body.items[0].kind).toBe('flow.run.finished');
  });

  it('describes the routes in the OpenAPI document', async () => {
    const doc = await a.get('/api/openapi.json');
    for (const path of [
      '/api/workflows',
      '/api/workflows/{id}',
      '/api/runs/{id}/events',
      '/api/flows/{id}/sheet.xlsx',
      '/api/documents/{id}/retry',
    ]) {
      expect(Object.keys(doc.body.paths)).toContain(path);
    }
  });

  it('deletes a flow with its documents', async () => {
    expect((await a.request(`/api/workflows/${flowId}`, { method: 'DELETE' })).body).toEqual({ ok: true });
    expect((await a.get(`/api/flows/${flowId}/documents`)).status).toBe(404);
  });
});
