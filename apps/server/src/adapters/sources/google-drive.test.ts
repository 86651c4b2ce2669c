import { mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { drive_v3 } from '@googleapis/drive';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEnv } from '../../config/env.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createDriveClient, createOAuthClient, withGoogleRetry } from '../../modules/google/google-api.ts';
import {
  authorizeStandIn,
  GOOGLE_SCOPES,
  type GoogleStandIn,
  installLoopbackGuard,
  startGoogleStandIn,
} from '../../test/google-stand-in.ts';
import { createGoogleDriveSource, type GoogleDriveSourceOptions } from './google-drive.ts';
import { hashBytes, type SourceEntry } from './source.ts';

let google: GoogleStandIn;
let guard: ReturnType<typeof installLoopbackGuard>;
let drive: drive_v3.Drive;
let cacheDir: string;
const waits: number[] = [];

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);

async function connectDrive(scopes?: string[]): Promise<drive_v3.Drive> {
  const env = parseEnv({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_OAUTH_BASE_URL: google.url,
    GOOGLE_API_BASE_URL: google.url,
    LOG_LEVEL: 'silent',
  });
  const tokens = await authorizeStandIn(google, scopes);
  const auth = createOAuthClient(env);
  auth.setCredentials({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  return createDriveClient(env, auth);
}

beforeAll(async () => {
  guard = installLoopbackGuard();
  google = await startGoogleStandIn({ maxPageSize: 2 });
  drive = await connectDrive();
});

afterAll(async () => {
  await google?.close();
  guard?.restore();
  expect(guard.refused).toEqual([]);
});

beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'bahi-drive-'));
  waits.length = 0;
  return () => rm(cacheDir, { recursive: true, force: true });
});

function source(folderId: string, extra: Partial<GoogleDriveSourceOptions> = {}) {
  return createGoogleDriveSource({
    drive,
    link: { kind: 'folder', id: folderId },
    cacheDir,
    maxBytes: 1024,
    maxFiles: 100,
    call: (fn) => withGoogleRetry(fn, { sleep: async (ms) => waits.push(ms), random: () => 0.5 }),
    ...extra,
  });
}

async function collect(iterable: AsyncIterable<SourceEntry>) {
  const files: Array<{ sourceId: string; name: string; path: string; bytes: string; sha256?: string }> = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  for await (const entry of iterable) {
    if ('file' in entry)
      files.push({ ...entry.file, bytes: (await readFile(entry.file.path)).toString('utf8') });
    else skipped.push(entry.skipped);
  }
  return { files, skipped };
}

const countRequests = (pattern: RegExp, query?: Record<string, string>) =>
  google.requests.filter(
    (r) => pattern.test(r.path) && Object.entries(query ?? {}).every(([k, v]) => r.query[k] === v),
  ).length;

describe('Google Drive source', () => {
  it('lists every page, takes PDFs and images only, skips the rest with reasons, sub-folders on request', async () => {
    const folder = google.addFolder('Invoices');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        google.addFile({
          name: `inv-${i}.pdf`,
          mimeType: 'application/pdf',
          content: pdf(`inv ${i}`),
          parent: folder,
        }),
      );
    google.addFile({
      name: 'scan',
      mimeType: 'image/png',
      content: Buffer.from('png bytes'),
      parent: folder,
    });
    google.addFile({
      name: 'notes.txt',
      mimeType: 'text/plain',
      content: Buffer.from('hello'),
      parent: folder,
    });
    google.addFile({
      name: 'Tracker',
      mimeType: 'application/vnd.google-apps.spreadsheet',
      content: Buffer.alloc(0),
      parent: folder,
    });
    google.addFile({
      name: 'huge.pdf',
      mimeType: 'application/pdf',
      content: Buffer.alloc(4096, 1),
      parent: folder,
    });
    const sub = google.addFolder('March', folder);
    google.addFile({ name: 'grn.pdf', mimeType: 'application/pdf', content: pdf('grn'), parent: sub });

    const listsBefore = countRequests(/^\/drive\/v3\/files$/);
    const flat = await collect(source(folder).list());
    // 10 children at 2 per page: 5 list requests, all followed.
    expect(countRequests(/^\/drive\/v3\/files$/) - listsBefore).toBe(5);
    expect(flat.files.map((f) => f.name).sort()).toEqual(
      [...ids.map((_, i) => `inv-${i}.pdf`), 'scan.png'].sort(),
    );
    expect(flat.files.find((f) => f.name === 'inv-3.pdf')?.bytes).toBe(pdf('inv 3').toString('utf8'));
    expect(flat.files.find((f) => f.name === 'inv-3.pdf')?.sourceId).toBe(ids[3]);
    expect(Object.fromEntries(flat.skipped.map((s) => [s.name, s.reason]))).toEqual({
      'notes.txt': expect.stringContaining('Not a supported document type'),
      Tracker: expect.stringContaining('save them as PDF'),
      'huge.pdf': expect.stringContaining('larger than'),
    });

    const deep = await collect(source(folder, { includeSubfolders: true }).list());
    expect(deep.files.map((f) => f.name)).toContain('March/grn.pdf');
  });

  it('is incremental: unchanged files are not downloaded again, a changed file is', async () => {
    const folder = google.addFolder('Incremental');
    const a = google.addFile({
      name: 'a.pdf',
      mimeType: 'application/pdf',
      content: pdf('a1'),
      parent: folder,
    });
    google.addFile({ name: 'b.pdf', mimeType: 'application/pdf', content: pdf('b1'), parent: folder });
    const fresh = await collect(source(folder).list());
    // Downloads are hashed as they stream, so the scan does not read them again; cached copies are not.
    expect(fresh.files.map((f) => f.sha256)).toEqual(fresh.files.map((f) => hashBytes(Buffer.from(f.bytes))));
    const downloads = () => countRequests(/^\/drive\/v3\/files\/[^/]+$/, { alt: 'media' });
    const first = downloads();
    const again = await collect(source(folder).list());
    expect(downloads()).toBe(first);
    expect(again.files).toHaveLength(2);
    expect(again.files.map((f) => f.sha256)).toEqual([undefined, undefined]);

    google.files.get(a)!.content = pdf('a2-changed');
    const changed = await collect(source(folder).list());
    expect(downloads()).toBe(first + 1);
    const changedA = changed.files.find((f) => f.sourceId === a);
    expect(changedA?.bytes).toContain('a2-changed');
    expect(changedA?.sha256).toBe(hashBytes(pdf('a2-changed')));
  });

  it('renews a reused cached file (the sweep keeps what is used) and downloads a swept one again', async () => {
    const folder = google.addFolder('Reuse');
    google.addFile({ name: 'a.pdf', mimeType: 'application/pdf', content: pdf('reuse'), parent: folder });
    const [first] = (await collect(source(folder).list())).files;
    const old = new Date(Date.now() - 48 * 60 * 60 * 1000);
    await utimes(first!.path, old, old);
    const downloads = () => countRequests(/^\/drive\/v3\/files\/[^/]+$/, { alt: 'media' });
    const before = downloads();
    await collect(source(folder).list());
    expect(downloads()).toBe(before);
    expect(Date.now() - (await stat(first!.path)).mtimeMs).toBeLessThan(60_000);
    await rm(first!.path);
    const again = await collect(source(folder).list());
    expect(downloads()).toBe(before + 1);
    expect(again.files[0]?.bytes).toContain('reuse');
  });

  it('retries a download whose connection drops, and never leaves a partial file', async () => {
    const folder = google.addFolder('Flaky');
    google.addFile({
      name: 'big.pdf',
      mimeType: 'application/pdf',
      content: pdf('x'.repeat(600)),
      parent: folder,
    });
    google.inject({ kind: 'drop', method: 'GET', path: /^\/drive\/v3\/files\/[^/]+$/, times: 1 });
    const once = await collect(source(folder).list());
    expect(once.files[0]?.bytes).toBe(pdf('x'.repeat(600)).toString('utf8'));

    const folder2 = google.addFolder('Dead');
    google.addFile({
      name: 'dead.pdf',
      mimeType: 'application/pdf',
      content: pdf('y'.repeat(600)),
      parent: folder2,
    });
    google.inject({ kind: 'drop', method: 'GET', path: /^\/drive\/v3\/files\/[^/]+$/, times: 3 });
    const dead = await collect(source(folder2).list());
    expect(dead.files).toEqual([]);
    expect(dead.skipped[0]?.reason).toMatch(/Could not download it from Google Drive.*next run tries again/);
    expect((await readdir(cacheDir)).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('stops on a page-token loop instead of listing forever', async () => {
    const folder = google.addFolder('Loop');
    for (let i = 0; i < 3; i++)
      google.addFile({
        name: `l${i}.pdf`,
        mimeType: 'application/pdf',
        content: pdf(`l${i}`),
        parent: folder,
      });
    google.inject({ kind: 'page-loop', method: 'GET', path: /^\/drive\/v3\/files$/, times: 2 });
    await expect(collect(source(folder).list())).rejects.toThrow(/same page of the folder twice/);
  });

  it('turns 401 and 403 insufficient scope into google_auth_required; retries 500 and 429 (Retry-After)', async () => {
    const folder = google.addFolder('Faults');
    google.addFile({ name: 'f.pdf', mimeType: 'application/pdf', content: pdf('f'), parent: folder });

    google.inject({ kind: 'status', status: 500, method: 'GET', path: /^\/drive\/v3\/files$/ });
    google.inject({
      kind: 'status',
      status: 429,
      retryAfter: 7,
      method: 'GET',
      path: /^\/drive\/v3\/files$/,
    });
    const recovered = await collect(source(folder).list());
    expect(recovered.files).toHaveLength(1);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBe(7000 + 500); // Retry-After seconds plus jitter

    for (const status of [401, 403]) {
      google.inject({ kind: 'status', status, times: 2, method: 'GET', path: /^\/drive\/v3\/files$/ });
      const failure = await collect(source(folder).list()).catch((e: unknown) => e);
      expect(isAppError(failure, 'google_auth_required')).toBe(true);
    }

    // A token granted without Drive access: the real 403 from the stand-in's scope check.
    const sheetsOnly = await connectDrive([GOOGLE_SCOPES.sheets]);
    const noScope = await collect(source(folder, { drive: sheetsOnly }).list()).catch((e: unknown) => e);
    expect(isAppError(noScope, 'google_auth_required')).toBe(true);
  });

  it('reads a single file link', async () => {
    const folder = google.addFolder('Single');
    const id = google.addFile({
      name: 'one.jpg',
      mimeType: 'image/jpeg',
      content: Buffer.from('jpeg'),
      parent: folder,
    });
    const one = await collect(source(folder, { link: { kind: 'file', id } }).list());
    expect(one.files).toEqual([expect.objectContaining({ sourceId: id, name: 'one.jpg', bytes: 'jpeg' })]);
  });
});
