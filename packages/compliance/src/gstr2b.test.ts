import { describe, expect, it } from 'vitest';
import type { BookInvoice } from './books.ts';
import { type BooksRow, matchGstr2b, type UnclaimedRow } from './gstr2b-match.ts';
import { readGstr2bFiles } from './gstr2b-read.ts';
import { file2b, invoice, OTHER, row2b, SUPPLIER, SUPPLIER_MH } from './test-helpers.ts';

const AMOUNTS = { txval: 10_000, cgst: 900, sgst: 900 };
const run = (books: BookInvoice[], files: unknown[], tolerance?: number) =>
  matchGstr2b(books, readGstr2bFiles(files), tolerance === undefined ? {} : { toleranceRupees: tolerance });
const booksRows = (rows: ReturnType<typeof run>) => rows.filter((r): r is BooksRow => r.kind === 'books');
const unclaimed = (rows: ReturnType<typeof run>) =>
  rows.filter((r): r is UnclaimedRow => r.kind === 'gstr2b');
const fields = (r: BooksRow) => r.differences.map((d) => d.field);

describe('gstr2b rule 1: same GSTIN, number key and financial year', () => {
  it('is matched when date and every amount are equal, the number written otherwise', () => {
    const rows = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('sf-101', '14-08-2025', AMOUNTS)] })],
    );
    expect(rows).toEqual([
      {
        contract: 'gstr2b/v1',
        kind: 'books',
        file: 'inv/x.pdf',
        vendorGstin: SUPPLIER,
        documentNumber: 'SF/25-26/0101',
        documentDate: '2025-08-14',
        status: 'matched',
        ims: 'accept',
        match: { ctin: SUPPLIER, inum: 'sf-101', dt: '2025-08-14', period: '082025' },
        differences: [],
        itcAvailable: true,
      },
    ]);
  });

  it('is within tolerance up to ₹1.00 a field, and a mismatch beyond it', () => {
    const within = run(
      [invoice()],
      [
        file2b('082025', {
          [SUPPLIER]: [row2b('SF101', '14-08-2025', { ...AMOUNTS, txval: 10_001, cgst: 899.1 })],
        }),
      ],
    );
    expect(booksRows(within)[0]).toMatchObject({
      status: 'matched_within_tolerance',
      ims: 'accept',
      differences: [],
    });
    const beyond = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', { ...AMOUNTS, txval: 10_001.01 })] })],
    );
    expect(booksRows(beyond)[0]).toMatchObject({
      status: 'mismatch',
      ims: 'pending',
      differences: [{ field: 'taxableValue', books: 10_000, gstr2b: 10_001.01 }],
    });
    // a wider tolerance accepts it
    const wide = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', { ...AMOUNTS, txval: 10_001.01 })] })],
      5,
    );
    expect(booksRows(wide)[0]!.status).toBe('matched_within_tolerance');
  });

  it('is a mismatch on a date or a place of supply, listing IGST/CGST/SGST when the tax went the other way', () => {
    const dated = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '20-08-2025', AMOUNTS)] })],
    );
    expect(booksRows(dated)[0]).toMatchObject({
      status: 'mismatch',
      differences: [{ field: 'documentDate', books: '2025-08-14', gstr2b: '2025-08-20' }],
    });
    const split = run(
      [invoice()],
      [
        file2b('082025', {
          [SUPPLIER]: [row2b('SF101', '14-08-2025', { txval: 10_000, igst: 1800 }, { pos: '27' })],
        }),
      ],
    );
    expect(fields(booksRows(split)[0]!)).toEqual(['igst', 'cgst', 'sgst', 'placeOfSupply']);
    const posOnly = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS, { pos: '33' })] })],
    );
    expect(booksRows(posOnly)[0]).toMatchObject({
      status: 'mismatch',
      differences: [{ field: 'placeOfSupply', books: '29', gstr2b: '33' }],
    });
    // an invoice that shows no place of supply is not compared on it
    const noPos = run(
      [invoice({ pos: null })],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS, { pos: '33' })] })],
    );
    expect(booksRows(noPos)[0]!.status).toBe('matched');
  });

  it('does not match the same number of another financial year', () => {
    const rows = run(
      [invoice({ number: '7', date: '2026-04-03', taxable: 500 })],
      [
        file2b('022026', { [SUPPLIER]: [row2b('7', '03-02-2026', { txval: 900, cgst: 81, sgst: 81 })] }),
        file2b('042026', { [SUPPLIER]: [row2b('7', '03-04-2026', { txval: 500, cgst: 45, sgst: 45 })] }),
      ],
    );
    expect(booksRows(rows)[0]).toMatchObject({
      status: 'matched',
      match: { dt: '2026-04-03', period: '042026' },
    });
    expect(unclaimed(rows).map((r) => r.match.dt)).toEqual(['2026-02-03']);
  });
});

describe('gstr2b rules 2–4', () => {
  it('rule 2: same number within 60 days across a financial year end is a date mismatch', () => {
    const rows = run(
      [invoice({ date: '2026-03-30' })],
      [file2b('042026', { [SUPPLIER]: [row2b('SF101', '02-04-2026', AMOUNTS)] })],
    );
    expect(booksRows(rows)[0]).toMatchObject({
      status: 'mismatch',
      differences: [{ field: 'documentDate' }],
    });
    const far = run(
      [invoice({ date: '2026-01-30' })],
      [file2b('042026', { [SUPPLIER]: [row2b('SF101', '02-04-2026', AMOUNTS)] })],
    );
    expect(booksRows(far)[0]!.status).toBe('missing_in_2b');
  });

  it('rule 3: the same PAN under another GSTIN is a vendorGstin mismatch', () => {
    const rows = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER_MH]: [row2b('SF101', '14-08-2025', AMOUNTS)] })],
    );
    expect(booksRows(rows)[0]).toMatchObject({
      status: 'mismatch',
      match: { ctin: SUPPLIER_MH },
      differences: [{ field: 'vendorGstin', books: SUPPLIER, gstr2b: SUPPLIER_MH }],
    });
    // another PAN is not the same supplier
    const other = run([invoice()], [file2b('082025', { [OTHER]: [row2b('SF101', '14-08-2025', AMOUNTS)] })]);
    expect(booksRows(other)[0]!.status).toBe('missing_in_2b');
  });

  it('rule 4: a unique document of other number, close date and the same amounts is a probable match', () => {
    const rows = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('SF110', '18-08-2025', { ...AMOUNTS, txval: 10_000.5 })] })],
    );
    expect(booksRows(rows)[0]).toMatchObject({
      status: 'probable_match',
      ims: 'pending',
      match: { inum: 'SF110' },
      differences: [
        { field: 'documentDate', books: '2025-08-14', gstr2b: '2025-08-18' },
        { field: 'documentNumber', books: 'SF/25-26/0101', gstr2b: 'SF110' },
      ],
    });
  });

  it('rule 4 claims nothing when two documents fit, and both stay unclaimed', () => {
    const rows = run(
      [invoice()],
      [
        file2b('082025', {
          [SUPPLIER]: [row2b('SF110', '18-08-2025', AMOUNTS), row2b('SF111', '10-08-2025', AMOUNTS)],
        }),
      ],
    );
    expect(booksRows(rows)[0]).toMatchObject({
      status: 'missing_in_2b',
      ims: 'none',
      match: null,
      itcAvailable: null,
    });
    expect(unclaimed(rows).map((r) => r.match.inum)).toEqual(['SF110', 'SF111']);
  });

  it('runs the rules in passes: an exact match elsewhere is not taken by an earlier invoice’s guess', () => {
    // The first invoice (by date) could guess SF102; rule 1 gives SF102 to its own invoice first.
    const a = invoice({ number: 'SF-101', date: '2025-08-10', file: 'a.pdf' });
    const b = invoice({ number: 'SF-102', date: '2025-08-12', file: 'b.pdf' });
    const rows = run([a, b], [file2b('082025', { [SUPPLIER]: [row2b('SF-102', '12-08-2025', AMOUNTS)] })]);
    expect(booksRows(rows).map((r) => r.status)).toEqual(['missing_in_2b', 'matched']);
  });
});

describe('gstr2b books without a 2B counterpart', () => {
  it('lists unclaimed documents after the books with their amounts', () => {
    const rows = run(
      [],
      [file2b('092025', { [OTHER]: [row2b('RT/9', '02-09-2025', { txval: 4200, igst: 756 })] })],
    );
    expect(rows).toEqual([
      {
        contract: 'gstr2b/v1',
        kind: 'gstr2b',
        status: 'missing_in_books',
        ims: 'pending',
        match: { ctin: OTHER, inum: 'RT/9', dt: '2025-09-02', period: '092025' },
        taxableValue: 4200,
        igst: 756,
        cgst: 0,
        sgst: 0,
        cess: 0,
      },
    ]);
  });

  it('marks the later copy of an invoice booked twice as duplicate_in_books; it claims nothing', () => {
    const original = invoice({ file: 'purchases/a.pdf' });
    const copy = invoice({ file: 'scans/a.jpg', number: 'sf-00101' });
    const rows = run(
      [copy, original],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS)] })],
    );
    expect(booksRows(rows).map((r) => [r.file, r.status, r.ims])).toEqual([
      ['scans/a.jpg', 'duplicate_in_books', 'none'],
      ['purchases/a.pdf', 'matched', 'accept'],
    ]);
    expect(unclaimed(rows)).toEqual([]);
  });

  it('never matches nor de-duplicates an unregistered supplier', () => {
    const a = invoice({ gstin: null, file: 'a.pdf' });
    const b = invoice({ gstin: null, file: 'b.pdf' });
    const rows = run([a, b], [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS)] })]);
    expect(booksRows(rows).map((r) => [r.status, r.ims, r.match])).toEqual([
      ['missing_in_2b', 'none', null],
      ['missing_in_2b', 'none', null],
    ]);
  });

  it('reports ITC not available with the portal’s reason', () => {
    const rows = run(
      [invoice()],
      [file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS, { itcavl: 'N', rsn: 'P' })] })],
    );
    expect(booksRows(rows)[0]).toMatchObject({ status: 'matched', itcAvailable: false, itcReason: 'P' });
  });
});

describe('reading GSTR-2B files', () => {
  it('sums the per-rate items[] shape', () => {
    const items = {
      inum: 'SF101',
      dt: '14-08-2025',
      pos: '29',
      itcavl: 'Y',
      rsn: '',
      items: [
        { num: 1, rt: 18, txval: 6000, igst: 0, cgst: 540, sgst: 540, cess: 0 },
        { num: 2, rt: 18, txval: 4000, igst: 0, cgst: 360, sgst: 360, cess: 0 },
      ],
    };
    const rows = run([invoice()], [file2b('082025', { [SUPPLIER]: [items] })]);
    expect(booksRows(rows)[0]!.status).toBe('matched');
  });

  it('replaces an original by its b2ba amendment, in its place and with the amendment’s period', () => {
    const files = [
      file2b('082025', {
        [SUPPLIER]: [
          row2b('SF101', '14-08-2025', { ...AMOUNTS, txval: 12_000 }),
          row2b('SF102', '15-08-2025', AMOUNTS),
        ],
      }),
      file2b(
        '092025',
        {},
        { [SUPPLIER]: [row2b('SF/101', '14-08-2025', AMOUNTS, { oinum: 'sf-0101', oidt: '14-08-2025' })] },
      ),
    ];
    const docs = readGstr2bFiles(files);
    expect(docs.map((d) => [d.inum, d.period, d.taxableValue])).toEqual([
      ['SF/101', '092025', 1_000_000],
      ['SF102', '082025', 1_000_000],
    ]);
    expect(booksRows(run([invoice()], files))[0]).toMatchObject({
      status: 'matched',
      match: { inum: 'SF/101', period: '092025' },
    });
  });

  it('keeps an amendment whose original is in no file as a document of its own period', () => {
    const docs = readGstr2bFiles([
      file2b(
        '092025',
        { [OTHER]: [row2b('Q1', '01-09-2025', AMOUNTS)] },
        { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS, { oinum: 'SF99', oidt: '10-07-2025' })] },
      ),
    ]);
    expect(docs.map((d) => [d.inum, d.period])).toEqual([
      ['Q1', '092025'],
      ['SF101', '092025'],
    ]);
  });

  it('orders several periods by return period, whatever order the files come in', () => {
    const aug = file2b('082025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS)] });
    const sep = file2b('092025', { [SUPPLIER]: [row2b('SF101', '14-08-2025', AMOUNTS)] });
    const jan = file2b('012026', { [OTHER]: [row2b('Z', '14-01-2026', AMOUNTS)] });
    expect(readGstr2bFiles([jan, sep, aug]).map((d) => d.period)).toEqual(['082025', '092025', '012026']);
    // two downloads of one period: the same documents in the same order either way
    const again = file2b('082025', { [OTHER]: [row2b('Y', '20-08-2025', AMOUNTS)] });
    expect(readGstr2bFiles([again, aug])).toEqual(readGstr2bFiles([aug, again]));
    // the earliest document is claimed, the later copy is listed unclaimed
    const rows = run([invoice()], [sep, aug]);
    expect(booksRows(rows)[0]!.match!.period).toBe('082025');
    expect(unclaimed(rows).map((r) => r.match.period)).toEqual(['092025']);
  });
});

describe('determinism', () => {
  it('gives every invoice the same row whatever the order of books and files', () => {
    const books = [
      invoice({ number: 'SF-101', date: '2025-08-10', file: 'a.pdf' }),
      invoice({ number: 'SF-105', date: '2025-08-12', file: 'b.pdf' }),
      invoice({ number: 'sf-101', date: '2025-08-10', file: 'c.pdf' }),
      invoice({ number: 'SF-109', date: '2025-08-13', file: 'd.pdf', gstin: SUPPLIER_MH }),
    ];
    const files = [
      file2b('082025', {
        [SUPPLIER]: [row2b('SF101', '10-08-2025', AMOUNTS), row2b('SF106', '13-08-2025', AMOUNTS)],
      }),
      file2b('092025', { [SUPPLIER]: [row2b('SF109', '13-08-2025', AMOUNTS)] }),
    ];
    const byFile = (rows: ReturnType<typeof run>) =>
      Object.fromEntries(booksRows(rows).map((r) => [r.file, r]));
    const forward = run(books, files);
    const backward = run([...books].reverse(), [...files].reverse());
    expect(byFile(backward)).toEqual(byFile(forward));
    expect(unclaimed(backward)).toEqual(unclaimed(forward));
    expect(booksRows(forward).map((r) => r.status)).toEqual([
      'matched',
      'probable_match',
      'duplicate_in_books',
      'mismatch',
    ]);
  });
});
