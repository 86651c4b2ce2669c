import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageOfLines } from '../../test/test-words.ts';
import { interpretDocument } from '../interpret.ts';
import { buildLayout } from '../layout.ts';
import { createFileMemoryStore } from './file-store.ts';
import { forgetField, learnFromCorrection } from './learn.ts';
import { applyMemory, recallIssuer } from './recall.ts';

// One vendor's layout: a reference and date under its own wording, which the rules do not know
// as an invoice number ("Bill Ref") — as on many small vendors' templates.
const invoice = (ref: string, date: string, buyer: string) =>
  pageOfLines([
    'ACME TOOLS PRIVATE LIMITED',
    'GSTIN : 27AAECM8421K1Z8',
    'TAX INVOICE',
    `Bill Ref  ${ref}`,
    `Bill Dt  ${date}`,
    'Bill To',
    buyer,
    'Taxable Value  1,000.00',
    'CGST @ 9%  90.00',
    'SGST @ 9%  90.00',
    'Total  1,180.00',
  ]);

describe('memory from corrections', () => {
  it("reads a vendor's next invoice the way a person corrected the last one, and says so", async () => {
    const first = invoice('AT/101', '05/01/2025', 'Sharma Traders');
    const read = interpretDocument([first], 'invoice', null);
    const corrected = {
      ...read.fields,
      documentNumber: 'AT/101',
      documentDate: '2025-01-05',
      vendorName: 'Acme Tools Private Limited',
    };
    const memory = learnFromCorrection({ pages: [first], type: 'invoice', fields: corrected, known: null });
    expect(memory?.key).toBe('gstin:27AAECM8421K1Z8');
    expect(memory?.recipes.documentNumber).toMatchObject({ anchor: 'bill ref', relation: 'right' });

    const store = createFileMemoryStore(mkdtempSync(join(tmpdir(), 'bahi-memory-')));
    await store.save(memory!);
    const next = invoice('AT/117', '19/02/2025', 'Gupta Stores');
    const result = interpretDocument([next], 'invoice', null);
    const layout = buildLayout([next]);
    const recalled = await recallIssuer(store, layout, 'invoice', result.fields);
    expect(recalled).not.toBeNull();
    applyMemory(layout, recalled!, result);
    expect(result.fields.documentNumber).toBe('AT/117');
    expect(result.fields.documentDate).toBe('2025-02-19');
    expect(result.fields.vendorName).toBe('Acme Tools Private Limited');
    // Only what memory changed says it came from memory; what the rules read alike stays theirs.
    expect(result.provenance.vendorName?.learnedFrom).toBe('AT/101');
    expect(result.provenance.documentNumber?.learnedFrom).toBeUndefined();
    // The other party changes from invoice to invoice: memory does not carry the last one over.
    expect(result.fields.buyerName).not.toBe('Sharma Traders');
  });

  it('knows nothing of an issuer it was never taught, and forgets a field when asked', async () => {
    const first = invoice('AT/101', '05/01/2025', 'Sharma Traders');
    const memory = learnFromCorrection({
      pages: [first],
      type: 'invoice',
      fields: { ...interpretDocument([first], 'invoice', null).fields, documentNumber: 'AT/101' },
      known: null,
    })!;
    const store = createFileMemoryStore(mkdtempSync(join(tmpdir(), 'bahi-memory-')));
    await store.save(memory);
    expect(await store.recall('invoice', ['gstin:29AAGCR4375J1ZU'])).toBeNull();
    expect(await store.recall('po', [memory.key])).toBeNull();

    const forgotten = forgetField(memory, 'documentNumber');
    expect(forgotten.recipes.documentNumber).toBeUndefined();
    const relearned = learnFromCorrection({
      pages: [first],
      type: 'invoice',
      fields: { documentNumber: 'AT/101', vendorGstin: '27AAECM8421K1Z8' },
      known: forgotten,
    });
    expect(relearned?.recipes.documentNumber).toBeUndefined();
    const taught = learnFromCorrection({
      pages: [first],
      type: 'invoice',
      fields: { documentNumber: 'AT/101', vendorGstin: '27AAECM8421K1Z8' },
      known: forgotten,
      taught: ['documentNumber'],
    });
    expect(taught?.recipes.documentNumber).toBeDefined();
    // A correction made before the forget (its lesson learned late) does not bring the field back.
    const at = forgetField(memory, 'documentNumber', '2025-03-01T10:00:00.000Z');
    const late = learnFromCorrection({
      pages: [first],
      type: 'invoice',
      fields: { documentNumber: 'AT/101', vendorGstin: '27AAECM8421K1Z8' },
      known: at,
      taught: ['documentNumber'],
      learnedAt: '2025-03-01T09:59:00.000Z',
    });
    expect(late?.recipes.documentNumber).toBeUndefined();
    expect(late?.forgotten).toEqual(['documentNumber']);
    const later = learnFromCorrection({
      pages: [first],
      type: 'invoice',
      fields: { documentNumber: 'AT/101', vendorGstin: '27AAECM8421K1Z8' },
      known: at,
      taught: ['documentNumber'],
      learnedAt: '2025-03-01T10:01:00.000Z',
    });
    expect(later?.recipes.documentNumber).toBeDefined();
    expect(later?.forgottenAt).toEqual({});
  });
});

/** A line table without a rate column over totals taxed at 18 %: the rules spread the rate. */
const SPREAD_RATE_TABLE = [
  'Description  Qty  Rate  Amount',
  'Spanner  2  500.00  1,000.00',
  'Taxable Value  1,000.00',
  'CGST @ 9%  90.00',
  'SGST @ 9%  90.00',
  'Total  1,180.00',
];

describe('what a lesson may overrule', () => {
  it("clears a line field the rules derived and a person emptied on the issuer's paper", () => {
    // Lines without a rate column: the rules spread the document's 18 % over them.
    const first = pageOfLines([
      'ACME TOOLS PRIVATE LIMITED',
      'GSTIN : 27AAECM8421K1Z8',
      'TAX INVOICE',
      'Invoice No : AT/101',
      ...SPREAD_RATE_TABLE,
    ]);
    const ruled = interpretDocument([first], 'invoice', null).lineItems;
    expect(ruled[0]?.gstRate).toBe(18);
    const lesson = (lineItems: Array<Record<string, unknown>>) =>
      learnFromCorrection({
        pages: [first],
        type: 'invoice',
        fields: { vendorGstin: '27AAECM8421K1Z8', documentNumber: 'AT/101' },
        known: null,
        lineItems,
      })!;
    // Kept by the person: the rate is printed. Emptied: a rate (and discount) this paper does not print.
    const line = { description: 'Spanner', quantity: 2, rate: 500, amount: 1000, discount: null };
    expect(lesson([{ ...line, gstRate: 18 }]).absentLineFields).toEqual(['discount']);
    const memory = lesson([{ ...line, gstRate: null }]);
    expect(memory.absentLineFields).toEqual(['discount', 'gstRate']);
    const result = {
      fields: { documentNumber: 'AT/117' },
      confidence: { documentNumber: 0.9 },
      provenance: {},
      lineItems: [{ description: 'Hammer', gstRate: 18 }],
    };
    applyMemory(buildLayout([invoice('AT/117', '19/02/2025', 'Gupta Stores')]), memory, result);
    expect(result.lineItems[0]?.gstRate).toBeNull();
    // A rate read from a cell is on the paper: a later layout with a rate column keeps it.
    const printed = {
      ...result,
      lineItems: [
        { description: 'Hammer', gstRate: 12, provenance: { gstRate: { page: 1, bbox: [1, 2, 3, 4] } } },
      ],
    };
    applyMemory(buildLayout([invoice('AT/118', '20/02/2025', 'Gupta Stores')]), memory, printed);
    expect(printed.lineItems[0]?.gstRate).toBe(12);
    // A column printed zero on every line the issuer's corrections always empty goes; zeros
    // beside a real discount are on the paper and stay.
    const cell = { page: 1, bbox: [1, 2, 3, 4] };
    const column = (discounts: number[]) => ({
      ...result,
      lineItems: discounts.map((discount) => ({
        description: 'Hammer',
        discount,
        provenance: { discount: cell },
      })),
    });
    const zeros = column([0, 0]);
    const mixed = column([0, 25]);
    applyMemory(buildLayout([invoice('AT/119', '21/02/2025', 'Gupta Stores')]), memory, zeros);
    applyMemory(buildLayout([invoice('AT/120', '22/02/2025', 'Gupta Stores')]), memory, mixed);
    expect(zeros.lineItems.map((l) => l.discount)).toEqual([null, null]);
    expect(mixed.lineItems.map((l) => l.discount)).toEqual([0, 25]);
  });

  it('learns a line field absent from a correction whose rules left it empty too', () => {
    const bare = pageOfLines([
      'TAX INVOICE',
      'Invoice No : AT/103',
      'Description  Qty  Amount',
      'Bolt  4  80.00',
    ]);
    const memory = learnFromCorrection({
      pages: [bare],
      type: 'invoice',
      fields: { vendorGstin: '27AAECM8421K1Z8', documentNumber: 'AT/103' },
      known: null,
      lineItems: [{ description: 'Bolt', quantity: 4, amount: 80, gstRate: null, hsnSac: '7318' }],
    })!;
    expect(memory.absentLineFields).toEqual(['gstRate']);
  });

  it("keeps a line field learned absent when a later document's rules leave it empty", () => {
    const bare = pageOfLines([
      'TAX INVOICE',
      'Invoice No : AT/102',
      'Description  Qty  Amount',
      'Spanner  2  1,000.00',
    ]);
    const known = {
      version: 1 as const,
      type: 'invoice' as const,
      key: 'gstin:27AAECM8421K1Z8',
      issuerName: null,
      constants: {},
      recipes: {},
      absentLineFields: ['gstRate'],
    };
    const input = {
      pages: [bare],
      type: 'invoice' as const,
      fields: { vendorGstin: '27AAECM8421K1Z8', documentNumber: 'AT/102' },
      known,
    };
    const line = { description: 'Spanner', quantity: 2, amount: 1000, gstRate: null };
    expect(learnFromCorrection({ ...input, lineItems: [line] })!.absentLineFields).toEqual(['gstRate']);
    // A rate the rules did not put there, kept by a person, says nothing against it…
    expect(
      learnFromCorrection({ ...input, lineItems: [{ ...line, gstRate: 18 }] })!.absentLineFields,
    ).toEqual(['gstRate']);
    // …but a person who keeps the rate the rules spread over the lines wants it there.
    const spread = pageOfLines(['TAX INVOICE', 'Invoice No : AT/104', ...SPREAD_RATE_TABLE]);
    const kept = learnFromCorrection({ ...input, pages: [spread], lineItems: [{ ...line, gstRate: 18 }] })!;
    expect(kept.absentLineFields).toEqual([]);
  });

  it("reads a unit OCR slipped on as the issuer's own, never a real unit", () => {
    const memory = {
      version: 1 as const,
      type: 'invoice' as const,
      key: 'gstin:27AAECM8421K1Z8',
      issuerName: null,
      constants: {},
      recipes: {},
      lineUnits: ['Box', 'Mtr', 'Nos'],
    };
    const result = {
      fields: { documentNumber: 'AT/117' },
      confidence: { documentNumber: 0.9 },
      provenance: {},
      lineItems: [
        { description: 'Gloves', unit: 'Bex' },
        { description: 'Diesel', unit: 'Ltr' },
        { description: 'Cable', unit: 'QQQ' },
      ],
    };
    applyMemory(buildLayout([invoice('AT/117', '19/02/2025', 'Gupta Stores')]), memory, result);
    expect(result.lineItems.map((l) => l.unit)).toEqual(['Box', 'Ltr', 'QQQ']);
  });

  it('only doubts a sure reading that a first lesson under an unknown label contradicts', () => {
    const memory = {
      version: 1 as const,
      type: 'invoice' as const,
      key: 'gstin:27AAECM8421K1Z8',
      issuerName: null,
      constants: {},
      recipes: {
        documentNumber: {
          anchor: 'bill to',
          relation: 'below' as const,
          kind: 'docno' as const,
          fromStart: 0,
          fromEnd: 0,
          ownLabel: false,
          confirmed: 0,
          from: { documentNumber: 'AT/101', learnedAt: '2025-01-05T00:00:00Z' },
        },
      },
    };
    const page = pageOfLines(['Bill To', 'GX-77 Traders', 'Invoice No : AT/117']);
    const result = {
      fields: { documentNumber: 'AT/117' },
      confidence: { documentNumber: 0.9 },
      provenance: {},
    };
    applyMemory(buildLayout([page]), memory, result);
    expect(result.fields.documentNumber).toBe('AT/117');
    expect(result.confidence.documentNumber).toBeLessThan(0.8);
    // Confirmed by a second correction, the lesson decides.
    memory.recipes.documentNumber.confirmed = 1;
    const again = {
      fields: { documentNumber: 'AT/117' },
      confidence: { documentNumber: 0.9 },
      provenance: {},
    };
    applyMemory(buildLayout([page]), memory, again);
    expect(again.fields.documentNumber).toBe('GX-77');
  });
  it('says nothing of a date when place cannot tell two "Dated" labels apart', () => {
    const page = (no: string, date: string, order: string) =>
      pageOfLines([
        'ACME TOOLS PRIVATE LIMITED',
        'GSTIN : 27AAECM8421K1Z8',
        'TAX INVOICE',
        `Invoice No  ${no}`,
        `Dated  ${date}`,
        'Order No  PO-9',
        `Dated  ${order}`,
        'Total  1,180.00',
      ]);
    const first = page('AT/101', '05/01/2025', '28/12/2024');
    const fields = { ...interpretDocument([first], 'invoice', null).fields, documentDate: '2025-01-05' };
    const memory = learnFromCorrection({ pages: [first], type: 'invoice', fields, known: null })!;
    const recipe = memory.recipes.documentDate!;
    expect(recipe.anchor).toBe('dated');
    // A photo taken at a slant placed the label between where the next page prints its two "Dated".
    recipe.at = { ...recipe.at!, y: recipe.at!.y + 14 / 842 };
    const next = page('AT/117', '19/02/2025', '10/02/2025');
    const result = interpretDocument([next], 'invoice', null);
    const rules = { value: result.fields.documentDate, confidence: result.confidence.documentDate };
    expect(rules.value).toBe('2025-02-19');
    const touched = applyMemory(buildLayout([next]), memory, result);
    expect(touched).not.toContain('documentDate');
    expect(result.fields.documentDate).toBe(rules.value);
    expect(result.confidence.documentDate).toBe(rules.confidence);
  });
  it("repairs a number's OCR slip as the rules do, instead of overruling their repair", () => {
    const scan = (no: string) =>
      pageOfLines(
        [
          'ACME TOOLS PRIVATE LIMITED',
          'GSTIN : 27AAECM8421K1Z8',
          'TAX INVOICE',
          `Invoice No  ${no}`,
          'Total  1,180.00',
        ],
        'ocr',
      );
    const first = scan('AT/2425/00101');
    const fields = { ...interpretDocument([first], 'invoice', null).fields, documentNumber: 'AT/2425/00101' };
    const memory = learnFromCorrection({ pages: [first], type: 'invoice', fields, known: null })!;
    expect(memory.recipes.documentNumber).toMatchObject({ anchor: 'invoice no' });
    // OCR drew the I of the next number's prefix as a lower-case l.
    const next = scan('Al/2425/00117');
    const result = interpretDocument([next], 'invoice', null);
    applyMemory(buildLayout([next]), memory, result);
    expect(result.fields.documentNumber).toBe('AI/2425/00117');
    expect(result.provenance.documentNumber?.learnedFrom).toBeUndefined();
  });
});
