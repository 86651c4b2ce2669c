import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseExtractArgs, runExtract } from '../src/cli.ts';
import { extractDocument } from '../src/extract.ts';
import { renderPage } from '../src/pdf/render.ts';
import { openPdf } from '../src/pdf/text.ts';
import type { ExtractionResult } from '../src/result.ts';
import { buildPdf, streamObject, textPdf } from './pdf-builder.ts';

const enc = new TextEncoder();
const good = textPdf([
  ['TAX INVOICE', 'Invoice No. : INV/77/2025', 'Invoice Date : 14/08/2025', 'Total 1,180.00'],
]);

function zeroPagePdf(): Uint8Array {
  return buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
}

function encryptedPdf(): Uint8Array {
  // Standard security handler, RC4 40-bit; /U does not match the empty password, so a reader
  // needs the user password to open it.
  const hex = (n: number) => `<${'a5'.repeat(n)}>`;
  return buildPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      `<< /Filter /Standard /V 1 /R 2 /O ${hex(32)} /U ${hex(32)} /P -44 >>`,
    ],
    '/Encrypt 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]',
  );
}

function bombPdf(): Uint8Array {
  // 20 MB of spaces deflate to ~20 KB: a content stream that balloons inside the reader.
  const data = deflateSync(Buffer.alloc(20 * 1024 * 1024, 0x20), { level: 1 });
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    streamObject(new Uint8Array(data), '/Filter /FlateDecode'),
  ]);
}

function manyPagesPdf(n: number): Uint8Array {
  const kids = Array.from({ length: n }, (_, i) => `${3 + i} 0 R`).join(' ');
  const objs = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${n} >>`];
  for (let i = 0; i < n; i++) objs.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>');
  return buildPdf(objs);
}

const codeOf = (r: ExtractionResult) => r.error?.code ?? null;

describe('bad input returns its contract error code', () => {
  it('empty file (0 bytes) → empty_document', async () => {
    const r = await extractDocument(new Uint8Array(0), { fileName: 'empty.pdf' });
    expect(codeOf(r)).toBe('empty_document');
    expect(r.fields).toEqual({});
    expect(r.file).toBe('empty.pdf');
  });

  it('corrupt PDF → unreadable_file', async () => {
    const junk = enc.encode(`%PDF-1.4\n${'garbage '.repeat(200)}`);
    expect(codeOf(await extractDocument(junk))).toBe('unreadable_file');
  });

  it('truncated PDF → unreadable_file or a readable remainder, never a crash', async () => {
    const r = await extractDocument(good.subarray(0, Math.floor(good.length / 3)));
    expect(['unreadable_file', 'empty_document', null]).toContain(codeOf(r));
  });

  it('a damaged PDF that mupdf repairs into nothing → unreadable_file, not an empty document', async () => {
    // No cross-reference table at all: mupdf rebuilds one and finds a page with nothing on it.
    const broken = enc.encode(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
        '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    const r = await extractDocument(broken, { type: 'invoice' });
    expect(codeOf(r)).toBe('unreadable_file');
    expect(r.error?.message).toMatch(/damaged/);
  });

  it('encrypted PDF → encrypted_pdf', async () => {
    expect(codeOf(await extractDocument(encryptedPdf()))).toBe('encrypted_pdf');
  });

  it('zero-page PDF → empty_document', async () => {
    expect(codeOf(await extractDocument(zeroPagePdf()))).toBe('empty_document');
  });

  it('PDF of blank pages → empty_document, never an empty success', async () => {
    const r = await extractDocument(manyPagesPdf(2), { type: 'invoice' });
    expect(codeOf(r)).toBe('empty_document');
    expect(r.error?.message).toMatch(/no text could be read/);
    expect(r.pages).toBe(2);
    expect(r.fields).toEqual({});
  });

  it('PDF whose text holds no field of its type → empty_document', async () => {
    const letter = textPdf([['Dear Sir,', 'Thank you for your visit last week.', 'With regards']]);
    const r = await extractDocument(letter, { type: 'po' });
    expect(codeOf(r)).toBe('empty_document');
    expect(r.error?.message).toMatch(/no purchase order field/);
  });

  it('500-page PDF → too_large, quickly', async () => {
    const t0 = Date.now();
    expect(codeOf(await extractDocument(manyPagesPdf(500)))).toBe('too_large');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('PDF bomb → too_large with bounded memory', async () => {
    const r = await extractDocument(bombPdf());
    expect(codeOf(r)).toBe('too_large');
  });

  it('a page 200 inches square → too_large before anything is rendered', async () => {
    const huge = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>',
    ]);
    const t0 = Date.now();
    // An OCR provider that must never be asked: the page is refused before it is rendered.
    const ocr = {
      recognize: async () => {
        throw new Error('OCR must not run on a page refused for its size');
      },
      close: async () => {},
    };
    const r = await extractDocument(huge, { type: 'invoice', ocr });
    expect(codeOf(r)).toBe('too_large');
    expect(r.error?.message).toBe('page 1 is too large to read (200 × 200 inches)');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('input over the byte limit → too_large', async () => {
    expect(codeOf(await extractDocument(good, { maxBytes: 100 }))).toBe('too_large');
  });

  it('unknown format → unsupported_type', async () => {
    expect(codeOf(await extractDocument(enc.encode('just some text, not a document')))).toBe(
      'unsupported_type',
    );
  });

  it('JPEG renamed .pdf is sniffed as a JPEG, not rejected', async () => {
    const jpeg = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const r = await extractDocument(new Uint8Array(jpeg), { fileName: 'scan.pdf', type: 'invoice' });
    // Read as an image (not refused as a broken PDF); with no OCR nothing on it can be read.
    expect(r.error?.code).toBe('empty_document');
    expect(r.error?.message).toMatch(/no OCR provider/);
    expect(r.pages).toBe(1);
  });

  it('a text PDF reads its labelled fields', async () => {
    const r = await extractDocument(good, { type: 'invoice' });
    expect(r.error).toBeNull();
    expect(r.fields.documentNumber).toBe('INV/77/2025');
    expect(r.fields.documentDate).toBe('2025-08-14');
    expect(r.provenance.documentNumber?.source).toBe('text');
  });

  it('a per-document time limit ends a document', async () => {
    const r = await extractDocument(good, { timeoutMs: 1, type: 'invoice' });
    // Either it finished within 1 ms or it stopped with an error; it never hangs.
    expect([null, 'too_large']).toContain(codeOf(r));
  });
});

describe('bahi extract batch', () => {
  it('prints one line per file in input order and keeps going after bad files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bahi-cli-'));
    const files = {
      bad: join(dir, 'bad.pdf'),
      good: join(dir, 'good.pdf'),
      empty: join(dir, 'empty.pdf'),
      missing: join(dir, 'missing.pdf'),
    };
    writeFileSync(files.bad, enc.encode('%PDF-1.4 broken'));
    writeFileSync(files.good, good);
    writeFileSync(files.empty, new Uint8Array(0));
    const lines: string[] = [];
    await runExtract(
      {
        type: 'invoice',
        jobs: 2,
        timeoutMs: 30_000,
        files: [files.bad, files.good, files.empty, files.missing],
      },
      (l) => lines.push(l),
    );
    const rows = lines.map((l) => JSON.parse(l) as ExtractionResult);
    expect(rows.map((r) => r.file)).toEqual([files.bad, files.good, files.empty, files.missing]);
    expect(rows.map(codeOf)).toEqual(['unreadable_file', null, 'empty_document', 'unreadable_file']);
    expect(rows[1]!.fields.documentNumber).toBe('INV/77/2025');
    for (const l of lines) expect(l.endsWith('\n') && !l.slice(0, -1).includes('\n')).toBe(true);
  });
});

describe('the bahi command', () => {
  const bin = new URL('../bin/bahi.mjs', import.meta.url).pathname;
  const run = (args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });

  it('exits 2 on a usage error', () => {
    expect(run(['extract', '--type', 'receipt', 'x.pdf']).status).toBe(2);
    // The other usage errors, without paying a process start each.
    expect(typeof parseExtractArgs([])).toBe('string');
    expect(typeof parseExtractArgs(['--bogus', 'x.pdf'])).toBe('string');
    expect(typeof parseExtractArgs(['--jobs', '0', 'x.pdf'])).toBe('string');
    expect(parseExtractArgs(['--type=po', '--jobs', '3', 'a.pdf', 'b.pdf'])).toMatchObject({
      type: 'po',
      jobs: 3,
      files: ['a.pdf', 'b.pdf'],
    });
  });

  it('spreads a batch over worker threads and prints NDJSON in input order, exit 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bahi-bin-'));
    const files = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'e.pdf'].map((f) => join(dir, f));
    writeFileSync(files[0]!, good);
    writeFileSync(files[1]!, enc.encode('%PDF-1.4 broken'));
    writeFileSync(files[2]!, good);
    writeFileSync(files[3]!, new Uint8Array(0));
    writeFileSync(files[4]!, good);
    const r = run(['extract', '--jobs', '2', '--type', 'invoice', ...files]);
    expect(r.status).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExtractionResult);
    expect(rows.map((x) => x.file)).toEqual(files);
    expect(rows.map(codeOf)).toEqual([null, 'unreadable_file', null, 'empty_document', null]);
    expect(rows[4]!.fields.documentNumber).toBe('INV/77/2025');
  });

  it('reads a batch of scans in worker threads, each with its own OCR engine', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bahi-bin-'));
    // The invoice as a scanner would hand it over: a 200 dpi picture, no text layer.
    const scan = renderPage(openPdf(good).loadPage(0), 200).png;
    const files = ['a.png', 'b.png', 'c.png', 'd.png'].map((f) => join(dir, f));
    for (const f of files) writeFileSync(f, scan);
    const r = run(['extract', '--jobs', '2', '--type', 'invoice', ...files]);
    expect(r.status).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExtractionResult);
    expect(rows.map((x) => x.file)).toEqual(files);
    for (const row of rows) {
      expect(row.source).toBe('ocr');
      expect(row.fields.documentNumber).toBe('INV/77/2025');
    }
  });
});
