import { randomBytes } from 'node:crypto';
import { link, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDriveLink } from './google-drive-link.ts';
import { createLocalFolderSource, resolveLocalPath } from './local-folder.ts';
import type { SourceEntry } from './source.ts';
import { expandZip, sanitizeFileName, storeUploadedFiles } from './upload.ts';

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'bahi-sources-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'invoices', 'august'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.pdf'), '%PDF-1.4 secret');
  await writeFile(join(root, 'invoices', 'a.pdf'), '%PDF-1.4 a');
  await writeFile(join(root, 'invoices', 'august', 'b.png'), 'png');
  await writeFile(join(root, 'invoices', 'notes.txt'), 'text');
  await writeFile(join(root, 'invoices', 'empty.pdf'), '');
  await writeFile(join(root, 'invoices', '.hidden.pdf'), 'x');
  await symlink(outside, join(root, 'invoices', 'escape'));
  await symlink(join(outside, 'secret.pdf'), join(root, 'invoices', 'secret-link.pdf'));
  await symlink(join(root, 'invoices'), join(root, 'invoices', 'august', 'loop'));
  await symlink(outside, join(root, 'linked-out'));
  // A hard link cannot be told from the original by its path: the only tell is its link count.
  await link(join(outside, 'secret.pdf'), join(root, 'invoices', 'hard-secret.pdf'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function collect(entries: AsyncIterable<SourceEntry>) {
  const files: string[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  for await (const e of entries) {
    if ('file' in e) files.push(e.file.sourceId);
    else skipped.push(e.skipped);
  }
  return { files, skipped };
}

describe('Google Drive links', () => {
  it('accepts folder links (folders/{id}) and file links (file/d/{id} or ?id=)', () => {
    expect(parseDriveLink('https://drive.google.com/drive/folders/1AbCdEfGhIjKlMnOp?usp=sharing')).toEqual({
      kind: 'folder',
      id: '1AbCdEfGhIjKlMnOp',
    });
    expect(parseDriveLink('https://drive.google.com/drive/u/0/folders/1AbCdEfGhIjKlMnOp')).toMatchObject({
      kind: 'folder',
    });
    expect(parseDriveLink('https://drive.google.com/file/d/1ZyXwVuTsRqPoNmLk/view')).toEqual({
      kind: 'file',
      id: '1ZyXwVuTsRqPoNmLk',
    });
    expect(parseDriveLink('https://drive.google.com/open?id=1ZyXwVuTsRqPoNmLk')).toEqual({
      kind: 'file',
      id: '1ZyXwVuTsRqPoNmLk',
    });
  });

  it('refuses anything else with the product message', () => {
    for (const url of [
      'https://drive.google.com/drive/my-drive',
      'https://evil.example.com/drive/folders/1AbCdEfGhIjKlMnOp',
      'http://drive.google.com/drive/folders/1AbCdEfGhIjKlMnOp',
      'not a url',
      'https://drive.google.com/drive/folders/',
    ]) {
      expect(() => parseDriveLink(url), url).toThrow(
        'Invalid Google Drive URL. Provide a folder or file link.',
      );
    }
  });
});

describe('local folder confinement', () => {
  it('refuses every local folder when no roots are granted', async () => {
    await expect(resolveLocalPath([], root, 'folder')).rejects.toThrow(/BAHI_FOLDER_ROOTS/);
  });

  it('accepts folders inside a root, absolute or relative to the first root', async () => {
    expect(await resolveLocalPath([root], join(root, 'invoices'), 'folder')).toBe(join(root, 'invoices'));
    expect(await resolveLocalPath([root], 'invoices/august', 'folder')).toBe(
      join(root, 'invoices', 'august'),
    );
  });

  it('answers a path outside the roots exactly as one that does not exist', async () => {
    const missing = 'This folder does not exist, or your organisation may not read it.';
    for (const path of [
      join(root, '..', 'outside'),
      '../outside',
      outside,
      '/etc',
      join(root, 'linked-out'),
      join(root, 'missing'),
    ]) {
      await expect(resolveLocalPath([root], path, 'folder'), path).rejects.toThrow(missing);
    }
  });

  it('says a file given as the folder is a file, and a folder given as the file a folder', async () => {
    await expect(resolveLocalPath([root], join(root, 'invoices', 'a.pdf'), 'folder')).rejects.toThrow(
      'This path is a file, not a folder.',
    );
    await expect(resolveLocalPath([root], join(root, 'invoices'), 'file')).rejects.toThrow(
      'This path is a folder, not a file.',
    );
    expect(await resolveLocalPath([root], 'invoices/a.pdf', 'file')).toBe(join(root, 'invoices', 'a.pdf'));
  });

  it('refuses a hard link inside a root to a file outside it', async () => {
    await expect(resolveLocalPath([root], join(root, 'invoices', 'hard-secret.pdf'), 'file')).rejects.toThrow(
      /hard link/,
    );
  });

  it('lists documents recursively, skipping unsupported, empty, hidden and escaping entries with reasons', async () => {
    const dir = await resolveLocalPath([root], 'invoices', 'folder');
    const { files, skipped } = await collect(
      createLocalFolderSource({ dir, roots: [root], maxBytes: 1000, maxFiles: 100 }).list(),
    );
    expect(files.sort()).toEqual(['a.pdf', 'august/b.png']);
    const reasons = Object.fromEntries(skipped.map((s) => [s.name, s.reason]));
    expect(reasons['notes.txt']).toMatch(/Not a supported document type/);
    expect(reasons['empty.pdf']).toBe('The file is empty');
    expect(reasons.escape).toMatch(/outside the allowed folders/);
    expect(reasons['secret-link.pdf']).toMatch(/outside the allowed folders/);
    expect(reasons['hard-secret.pdf']).toMatch(/hard link/);
    expect(files.some((f) => f.includes('secret'))).toBe(false);
  });

  it('streams a folder of 2,000 files with flat memory and caps a run at FLOW_MAX_FILES', async () => {
    const big = join(root, 'big');
    await mkdir(big);
    for (let i = 0; i < 2000; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, k) =>
          writeFile(join(big, `doc-${String(i + k).padStart(4, '0')}.pdf`), '%PDF-1.4'),
        ),
      );
    }
    expect((await readdir(big)).length).toBe(2000);
    const heapBefore = process.memoryUsage().heapUsed;
    let count = 0;
    for await (const e of createLocalFolderSource({
      dir: big,
      roots: [root],
      maxBytes: 1000,
      maxFiles: 5000,
    }).list()) {
      if ('file' in e) count++;
    }
    expect(count).toBe(2000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    const capped = await collect(
      createLocalFolderSource({ dir: big, roots: [root], maxBytes: 1000, maxFiles: 1500 }).list(),
    );
    expect(capped.files).toHaveLength(1500);
    expect(capped.skipped).toHaveLength(500);
    expect(capped.skipped[0]!.reason).toMatch(/first 1500 files/);
  });
});

describe('uploads and zip safety', () => {
  const limits = { maxFileBytes: 1024 * 1024, maxFiles: 50, maxExpandedBytes: 4 * 1024 * 1024 };

  it('keeps only the file name of a path (zip-slip, browser paths)', () => {
    expect(sanitizeFileName('../../etc/passwd.pdf')).toBe('passwd.pdf');
    expect(sanitizeFileName('C:\\Users\\x\\inv.pdf')).toBe('inv.pdf');
    expect(sanitizeFileName('a\u0000b.pdf')).toBe('ab.pdf');
    // A right-to-left override would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(sanitizeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFileName('\u2067bill\u2069.pdf')).toBe('bill.pdf');
  });

  it('stores files content-addressed and skips unsupported, empty and oversized ones', async () => {
    const dir = join(base, 'uploads-1');
    const pdf = strToU8('%PDF-1.4 one');
    const out = await storeUploadedFiles(
      dir,
      [
        { name: 'one.pdf', bytes: pdf },
        { name: 'one-again.pdf', bytes: pdf },
        { name: 'script.exe', bytes: strToU8('MZ') },
        { name: 'empty.pdf', bytes: new Uint8Array() },
        { name: 'huge.pdf', bytes: new Uint8Array(limits.maxFileBytes + 1) },
      ],
      limits,
    );
    expect(out.stored.map((s) => s.fileName)).toEqual(['one.pdf', 'one-again.pdf']);
    expect(out.stored[0]!.storedPath).toBe(out.stored[1]!.storedPath);
    expect(out.stored[0]!.storedPath).toMatch(/[0-9a-f]{64}\.pdf$/);
    expect((await readdir(dir)).filter((f) => !f.endsWith('.tmp'))).toHaveLength(1);
    expect(out.skipped.map((s) => s.name)).toEqual(['script.exe', 'empty.pdf', 'huge.pdf']);
    expect(out.skipped[2]!.reason).toMatch(/larger than/);
  });

  it('expands a zip safely: slip paths flattened, nested zips and junk skipped', async () => {
    const inner = zipSync({ 'x.pdf': strToU8('%PDF inner') });
    const zip = zipSync({
      '../../../../tmp/evil.pdf': strToU8('%PDF evil'),
      'docs/inv-1.pdf': strToU8('%PDF one'),
      'docs/photo.jpg': strToU8('jpeg'),
      'docs/readme.md': strToU8('# hi'),
      'nested.zip': inner,
      '__MACOSX/docs/._inv-1.pdf': strToU8('junk'),
    });
    const dir = join(base, 'uploads-2');
    const out = await storeUploadedFiles(dir, [{ name: 'batch.zip', bytes: zip }], limits);
    expect(out.stored.map((s) => s.fileName).sort()).toEqual(['evil.pdf', 'inv-1.pdf', 'photo.jpg']);
    for (const s of out.stored) expect(s.storedPath.startsWith(dir)).toBe(true);
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.name, s.reason]));
    expect(reasons['batch.zip/nested.zip']).toMatch(/inside a zip are not opened/);
    expect(reasons['batch.zip/docs/readme.md']).toMatch(/Not a supported/);
    await expect(readdir(join(base, 'tmp'))).rejects.toThrow();
  });

  it('refuses a zip that expands past 100 times its size, and stores none of its entries', async () => {
    // Eight entries of 2 MB zeros (each under a 3 MB per-file limit) squeeze into a few KB: a bomb.
    const zeros = new Uint8Array(2 * 1024 * 1024);
    const entries = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`inv-${i}.pdf`, zeros]));
    const bomb = zipSync(entries, { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const dir = join(base, 'uploads-bomb');
    const out = await storeUploadedFiles(
      dir,
      [
        { name: 'bomb.zip', bytes: bomb },
        { name: 'fine.pdf', bytes: strToU8('%PDF-1.4 fine') },
      ],
      { maxFileBytes: 3 * 1024 * 1024, maxFiles: 50, maxExpandedBytes: 64 * 1024 * 1024 },
    );
    expect(out.stored.map((s) => s.fileName)).toEqual(['fine.pdf']);
    expect(out.skipped).toEqual([
      {
        name: 'bomb.zip',
        reason: expect.stringMatching(/more than 100 times its size.*nothing from it was stored/),
      },
    ]);
    // Nothing of the bomb is left behind: one stored file, no staging folder.
    expect(await readdir(dir)).toHaveLength(1);
  });

  it('inflates a zip bomb off the event loop: other requests get turns all along, not after megabytes', async () => {
    // One entry of 48 MB zeros in ~50 KB: a single 16 KB slice of it is 16 MB of zeros.
    const MB = 1024 * 1024;
    const bomb = zipSync({ 'po.pdf': new Uint8Array(48 * MB) }, { level: 9 });
    const stagingDir = await mkdtemp(join(base, 'bomb-turns-'));
    // Turns of the event loop while the zip expands (one per loop iteration, however loaded the machine).
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const out = await expandZip({
      zipName: 'bomb.zip',
      zip: { name: 'bomb.zip', bytes: bomb },
      stagingDir,
      limits: { maxFileBytes: 64 * MB, maxFiles: 10 },
      budget: { bytes: 8 * MB, reason: 'too much' },
    });
    counting = false;
    expect(out).toMatchObject({
      refused: true,
      files: [],
      skipped: [{ name: 'bomb.zip', reason: 'too much' }],
    });
    // Inflated on the event loop, a slice's 16 MB came in one turn (3 turns in all); on the thread pool
    // the loop hears 64 KB at a time, so there is a turn for at least every megabyte inflated.
    expect(out.expanded).toBeGreaterThan(8 * MB);
    expect(turns).toBeGreaterThan(out.expanded / MB);
    expect(await readdir(stagingDir)).toHaveLength(1);
  });

  it('caps what all zips of one request expand to, refusing whole archives past the cap', async () => {
    // Random bytes do not compress: these zips are honest (ratio ~1), only too much together.
    const noise = () => randomBytes(1024 * 1024);
    const first = zipSync({ 'a.pdf': noise(), 'b.pdf': noise(), 'c.pdf': noise() }, { level: 0 });
    const second = zipSync({ 'd.pdf': noise(), 'e.pdf': noise() }, { level: 0 });
    const dir = join(base, 'uploads-cap');
    await mkdir(join(base, 'received'), { recursive: true });
    // The second arrives as an upload streams it: a file on disk, read slice by slice.
    const received = join(base, 'received', 'second.zip');
    await writeFile(received, second);
    const out = await storeUploadedFiles(
      dir,
      [
        { name: 'first.zip', bytes: first },
        { name: 'second.zip', path: received, size: second.length },
      ],
      { maxFileBytes: 4 * 1024 * 1024, maxFiles: 50, maxExpandedBytes: 4 * 1024 * 1024 },
    );
    expect(out.stored.map((s) => s.fileName)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    expect(out.skipped).toEqual([
      {
        name: 'second.zip',
        reason: expect.stringMatching(/more than 4 MB in all; nothing from this one was stored/),
      },
    ]);
    expect((await readdir(dir)).sort()).toEqual(out.stored.map((s) => `${s.sha256}.pdf`).sort());
  });

  it("stops at the organisation's storage quota with a sentence saying so", async () => {
    const out = await storeUploadedFiles(
      join(base, 'uploads-quota'),
      [
        { name: 'one.pdf', bytes: strToU8('%PDF-1.4 one ') },
        { name: 'two.pdf', bytes: strToU8('%PDF-1.4 two ') },
      ],
      { ...limits, storageLeftBytes: 20 },
    );
    expect(out.stored.map((s) => s.fileName)).toEqual(['one.pdf']);
    expect(out.skipped).toEqual([
      { name: 'two.pdf', reason: expect.stringMatching(/storage for uploads is full/) },
    ]);
  });

  it('moves a streamed upload into place instead of reading it into memory', async () => {
    const path = join(base, 'received', 'scan.pdf');
    await mkdir(join(base, 'received'), { recursive: true });
    await writeFile(path, '%PDF-1.4 streamed');
    const dir = join(base, 'uploads-moved');
    const out = await storeUploadedFiles(dir, [{ name: 'scan.pdf', path, size: 17 }], limits);
    expect(out.stored).toHaveLength(1);
    expect(await readFile(out.stored[0]!.storedPath, 'utf8')).toBe('%PDF-1.4 streamed');
    await expect(stat(path)).rejects.toThrow();
  });

  it('says a password-protected zip is password-protected, not damaged', async () => {
    // A zip whose entries are encrypted (ZipCrypto): bit 0 of each header's flag, the data unreadable.
    const zip = zipSync({ 'bill.pdf': [randomBytes(2048), { level: 0 }] });
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    view.setUint16(6, view.getUint16(6, true) | 1, true);
    for (let at = zip.length - 22; at >= 0; at--)
      if (view.getUint32(at, true) === 0x02014b50)
        view.setUint16(at + 8, view.getUint16(at + 8, true) | 1, true);
    for (const file of [
      { name: 'locked.zip', bytes: zip },
      await (async () => {
        const path = join(base, 'locked-streamed.zip');
        await writeFile(path, zip);
        return { name: 'locked.zip', path, size: zip.length };
      })(),
    ]) {
      const out = await storeUploadedFiles(join(base, 'uploads-locked'), [file], limits);
      expect(out.stored).toEqual([]);
      expect(out.skipped).toEqual([
        { name: 'locked.zip', reason: expect.stringMatching(/^This zip file is password-protected/) },
      ]);
    }
  });

  it('reports a damaged entry by name and keeps the others, in the order of the zip', async () => {
    const zip = zipSync({
      'a.pdf': strToU8(`%PDF-1.4 ${'a'.repeat(5000)}`),
      'b.pdf': strToU8(`%PDF-1.4 ${'b'.repeat(300)}`),
      'c.pdf': [strToU8('%PDF-1.4 stored'), { level: 0 }],
    });
    for (let at = 40; at < 60; at++) zip[at] = 0xff; // inside a.pdf's deflated bytes
    const out = await storeUploadedFiles(
      join(base, 'uploads-damaged-entry'),
      [{ name: 'z.zip', bytes: zip }],
      limits,
    );
    expect(out.stored.map((s) => [s.fileName, s.size])).toEqual([
      ['b.pdf', 309],
      ['c.pdf', 15],
    ]);
    expect(out.skipped).toEqual([{ name: 'z.zip/a.pdf', reason: 'This entry of the zip is damaged' }]);
  });

  it('reports a damaged zip instead of failing the upload', async () => {
    const out = await storeUploadedFiles(
      join(base, 'uploads-3'),
      [{ name: 'broken.zip', bytes: strToU8('PK\u0003\u0004garbage') }],
      limits,
    );
    expect(out.stored).toEqual([]);
    expect(out.skipped.length).toBeGreaterThan(0);
  });
});
