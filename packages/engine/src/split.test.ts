import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mupdf from 'mupdf';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../test/dev-fixtures.ts';
import { parseExtractArgs, runExtract } from './cli.ts';
import { extractDocument, extractDocuments } from './extract.ts';
import { readPageCounter } from './split.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, devFixtures)));

/** The pages of several PDFs one after the other, as one scanned or printed batch would be. */
function batchOf(...files: string[]): Uint8Array {
  const out = new mupdf.PDFDocument();
  for (const f of files) {
    const src = mupdf.Document.openDocument(fixture(f), 'application/pdf').asPDF()!;
    for (let i = 0; i < src.countPages(); i++) out.graftPage(-1, src, i);
  }
  return new Uint8Array(out.saveToBuffer('compress').asUint8Array());
}

describe('readPageCounter', () => {
  it('reads the page counters printers put on pages', () => {
    expect(readPageCounter(['Tax Invoice', 'Page 2 of 3'])).toEqual({ at: 2, of: 3 });
    expect(readPageCounter(['Page No. 1/2'])).toEqual({ at: 1, of: 2 });
    expect(readPageCounter(['1 of 4 pages'])).toEqual({ at: 1, of: 4 });
  });

  it('ignores what only looks like one', () => {
    expect(readPageCounter(['Qty 5 of 12 boxes'])).toBeNull();
    expect(readPageCounter(['Page 3 of 2'])).toBeNull();
    expect(readPageCounter(['Total 1,20,000.00'])).toBeNull();
  });
});

describe('extractDocuments', () => {
  it('cuts a batch of two invoices where the second begins, each read as it is alone', async () => {
    const [a, b] = await Promise.all([
      extractDocument(fixture('invoice-003.pdf'), { type: 'invoice' }),
      extractDocument(fixture('invoice-024.pdf'), { type: 'invoice' }),
    ]);
    const results = await extractDocuments(batchOf('invoice-003.pdf', 'invoice-024.pdf'), {
      type: 'invoice',
      fileName: 'batch.pdf',
    });
    expect(results.map((r) => r.pageRange)).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(results.map((r) => r.file)).toEqual(['batch.pdf', 'batch.pdf']);
    expect(results[0]!.fields).toEqual(a!.fields);
    expect(results[1]!.fields).toEqual(b!.fields);
    expect(results[1]!.lineItems).toHaveLength(b!.lineItems.length);
    expect(results[1]!.pages).toBe(2);
    // Provenance names the batch's page, where a person opens it.
    expect(results[1]!.provenance.documentNumber?.page).toBe(2);
  });

  it('cuts a batch of three documents of different layouts', async () => {
    const results = await extractDocuments(batchOf('invoice-009.pdf', 'invoice-001.pdf', 'invoice-003.pdf'), {
      type: 'invoice',
    });
    expect(results.map((r) => r.pageRange)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(new Set(results.map((r) => r.fields.documentNumber)).size).toBe(3);
  });

  it('keeps a multi-page document whole, exactly as extractDocument reads it', async () => {
    for (const [name, type] of [
      ['grn-010.pdf', 'grn'],
      ['invoice-024.pdf', 'invoice'],
    ] as const) {
      const [alone] = [await extractDocument(fixture(name), { type })];
      const results = await extractDocuments(fixture(name), { type });
      expect(results).toHaveLength(1);
      expect(results[0]).toEqual(alone);
      expect(results[0]!.pageRange).toBeUndefined();
    }
  });

  it('keeps two copies of one invoice (original and duplicate) as one document', async () => {
    const results = await extractDocuments(batchOf('invoice-003.pdf', 'invoice-003.pdf'), {
      type: 'invoice',
    });
    expect(results).toHaveLength(1);
  });

  it('gives a file that cannot be read one error result', async () => {
    const results = await extractDocuments(new Uint8Array([1, 2, 3]), { fileName: 'x.pdf' });
    expect(results).toHaveLength(1);
    expect(results[0]!.error?.code).toBe('unsupported_type');
  });
});

describe('bahi extract --split', () => {
  it('prints one line per document of a batch, in order, and one line for a file of one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bahi-split-'));
    try {
      const batch = join(dir, 'batch.pdf');
      const single = join(dir, 'single.pdf');
      writeFileSync(batch, batchOf('invoice-003.pdf', 'invoice-009.pdf'));
      writeFileSync(single, fixture('invoice-024.pdf'));
      const args = parseExtractArgs(['--split', '--type', 'invoice', batch, single]);
      if (typeof args === 'string') throw new Error(args);
      const lines: string[] = [];
      await runExtract({ ...args, threads: false }, (l) => lines.push(l));
      const rows = lines.map((l) => JSON.parse(l));
      expect(rows.map((r) => [r.file, r.pageRange ?? null])).toEqual([
        [batch, [1, 1]],
        [batch, [2, 2]],
        [single, null],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
