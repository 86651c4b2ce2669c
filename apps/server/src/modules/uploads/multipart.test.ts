import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveMultipartFiles } from './multipart.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bahi-multipart-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function formRequest(files: Array<[string, Uint8Array | string]>): Request {
  const form = new FormData();
  for (const [name, body] of files) form.append('files', new Blob([body]), name);
  return new Request('http://bahi.test/api/flows/f/uploads', { method: 'POST', body: form });
}

describe('receiveMultipartFiles', () => {
  it('streams each file to its own private temporary file, in the order sent', async () => {
    const received = await receiveMultipartFiles(
      formRequest([
        ['a.pdf', '%PDF-1.4 first'],
        ['../../etc/b.png', new Uint8Array(3000)],
      ]),
      root,
      { maxFileBytes: 1024 * 1024, maxFiles: 10 },
    );
    expect(received.skipped).toEqual([]);
    expect(received.files.map((f) => [f.name, f.size])).toEqual([
      ['a.pdf', 14],
      ['b.png', 3000],
    ]);
    // A changed name is said so, never changed silently.
    expect(received.files[0]!.renamed).toBeUndefined();
    expect(received.files[1]!.renamed).toBe('The name held a folder path; only the file name was kept');
    expect(await readFile(received.files[0]!.path, 'utf8')).toBe('%PDF-1.4 first');
    expect((await stat(received.files[1]!.path)).mode & 0o777).toBe(0o600);
    await received.cleanup();
    expect(existsSync(received.files[0]!.path)).toBe(false);
  });

  it('keeps names in Indian scripts as sent', async () => {
    const received = await receiveMultipartFiles(formRequest([['बिल-अगस्त.pdf', '%PDF-1.4']]), root, {
      maxFileBytes: 1024,
      maxFiles: 10,
    });
    expect(received.files.map((f) => [f.name, f.renamed])).toEqual([['बिल-अगस्त.pdf', undefined]]);
    await received.cleanup();
  });

  it('says why a name lost invisible direction marks', async () => {
    const received = await receiveMultipartFiles(formRequest([['invoice\u202Efdp.exe', '%PDF-1.4']]), root, {
      maxFileBytes: 1024,
      maxFiles: 10,
    });
    expect(received.files.map((f) => [f.name, f.renamed])).toEqual([
      ['invoicefdp.exe', expect.stringMatching(/^Invisible characters .* were removed from the name$/)],
    ]);
    await received.cleanup();
  });

  it('cuts a file off at the per-file limit as it arrives, and counts files', async () => {
    const received = await receiveMultipartFiles(
      formRequest([
        ['big.pdf', new Uint8Array(5 * 1024 * 1024)],
        ['one.pdf', 'x'],
        ['two.pdf', 'y'],
        ['three.pdf', 'z'],
      ]),
      root,
      { maxFileBytes: 1024 * 1024, maxFiles: 3 },
    );
    expect(received.files.map((f) => f.name)).toEqual(['one.pdf', 'two.pdf']);
    expect(received.skipped).toEqual([
      { name: 'big.pdf', reason: 'The file is larger than the 1 MB limit' },
      { name: 'more files', reason: 'Only 3 files are accepted per upload' },
    ]);
    await received.cleanup();
  });

  it('answers a body that is not a form upload with a plain validation error', async () => {
    const request = new Request('http://bahi.test/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await expect(
      receiveMultipartFiles(request, root, { maxFileBytes: 10, maxFiles: 1 }),
    ).rejects.toMatchObject({
      code: 'validation',
    });
  });
});
