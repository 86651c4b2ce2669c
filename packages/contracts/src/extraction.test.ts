import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  EXTRACTION_CONTRACT,
  ExtractionResultSchema,
  extractionDocumentTypes,
  extractionProfiles,
  extractionValueKinds,
  getFieldKind,
  getFieldLabel,
  listChecks,
  listFieldsOfKind,
  listHeaderFields,
  listLineFields,
} from './extraction.ts';

// The lists as shared/contracts/extraction.md writes them, copied here so a change to the profiles
// that the contract does not make fails.
const contractCommon = [
  'documentNumber',
  'documentDate',
  'vendorName',
  'vendorGstin',
  'vendorAddress',
  'vendorStateCode',
  'buyerName',
  'buyerGstin',
  'buyerAddress',
  'buyerStateCode',
  'currency',
];
const contractHeader = {
  invoice: [
    ...contractCommon,
    'poNumber',
    'poDate',
    'placeOfSupply',
    'taxableValue',
    'cgst',
    'sgst',
    'igst',
    'cess',
    'roundOff',
    'total',
    'dueDate',
    'irn',
    'ackNumber',
    'ackDate',
    'ewayBillNumber',
    'vehicleNumber',
  ],
  po: [
    ...contractCommon,
    'deliveryDate',
    'paymentTerms',
    'placeOfSupply',
    'taxableValue',
    'cgst',
    'sgst',
    'igst',
    'cess',
    'total',
  ],
  grn: [...contractCommon, 'poNumber', 'poDate', 'invoiceNumber', 'invoiceDate', 'vehicleNumber'],
};
const contractPriceLines = [
  'description',
  'hsnSac',
  'quantity',
  'unit',
  'rate',
  'discount',
  'amount',
  'gstRate',
];
const contractLines = {
  invoice: contractPriceLines,
  po: contractPriceLines,
  grn: [
    'description',
    'hsnSac',
    'unit',
    'orderedQuantity',
    'receivedQuantity',
    'acceptedQuantity',
    'rejectedQuantity',
  ],
};

/** The sample document of extraction.md ("One document"), verbatim. */
const contractSample = {
  contract: 'extraction/v1',
  file: 'invoices/acme-0142.pdf',
  documentType: 'invoice',
  pages: 1,
  source: 'text',
  fields: { documentNumber: 'AC/25-26/0142', documentDate: '2025-08-14', '...': '...' },
  lineItems: [{ description: 'MS Angle 40x40x5', hsnSac: '7216', quantity: 120, '...': '...' }],
  checks: [{ code: 'gstin_checksum', field: 'vendorGstin', ok: true, message: '' }],
  confidence: { documentNumber: 0.98, total: 0.99 },
  provenance: { documentNumber: { page: 1, bbox: [412, 96, 530, 110], source: 'text' } },
  error: null,
};

describe('extraction profiles', () => {
  it('has the three contract types, lower-case', () => {
    expect(extractionDocumentTypes).toEqual(['invoice', 'po', 'grn']);
    for (const type of extractionDocumentTypes) expect(extractionProfiles[type].type).toBe(type);
  });

  for (const type of extractionDocumentTypes) {
    it(`${type}: header and line fields are the contract's, in contract order`, () => {
      expect(listHeaderFields(type)).toEqual(contractHeader[type]);
      expect(listLineFields(type)).toEqual(contractLines[type]);
    });

    it(`${type}: every field has a value kind and a label`, () => {
      const { headerFields, lineFields } = extractionProfiles[type];
      for (const f of [...headerFields, ...lineFields]) {
        expect(extractionValueKinds).toContain(f.kind);
        expect(f.label.trim()).not.toBe('');
        expect(getFieldKind(type, f.name)).toBe(f.kind);
        expect(getFieldLabel(type, f.name)).toBe(f.label);
      }
    });
  }

  it('answers null for a field a type does not have', () => {
    expect(getFieldKind('grn', 'total')).toBeNull();
    expect(getFieldLabel('po', 'orderedQuantity')).toBeNull();
    expect(getFieldKind('invoice', 'nonsense')).toBeNull();
  });

  it('gives each field the kind of the contract value formats', () => {
    expect(getFieldKind('invoice', 'documentDate')).toBe('date');
    expect(getFieldKind('invoice', 'total')).toBe('money');
    expect(getFieldKind('invoice', 'vendorGstin')).toBe('gstin');
    expect(getFieldKind('invoice', 'placeOfSupply')).toBe('stateCode');
    expect(getFieldKind('invoice', 'currency')).toBe('currency');
    expect(getFieldKind('invoice', 'vendorName')).toBe('text');
    for (const code of ['documentNumber', 'irn', 'ackNumber', 'ewayBillNumber', 'vehicleNumber', 'hsnSac'])
      expect(getFieldKind('invoice', code)).toBe('code');
    expect(getFieldKind('invoice', 'quantity')).toBe('quantity');
    expect(getFieldKind('invoice', 'gstRate')).toBe('percent');
    expect(getFieldKind('grn', 'acceptedQuantity')).toBe('quantity');
  });

  it('lists fields by kind, each once', () => {
    expect(listFieldsOfKind('money')).toEqual([
      'taxableValue',
      'cgst',
      'sgst',
      'igst',
      'cess',
      'roundOff',
      'total',
      'rate',
      'discount',
      'amount',
    ]);
    expect(listFieldsOfKind('percent')).toEqual(['gstRate']);
    expect(listFieldsOfKind('quantity', 'grn')).toEqual([
      'orderedQuantity',
      'receivedQuantity',
      'acceptedQuantity',
      'rejectedQuantity',
    ]);
  });

  it('applies the checks of each type', () => {
    const parties = ['gstin_format', 'gstin_checksum', 'state_code_matches_gstin'];
    const amounts = [
      'tax_type_matches_place_of_supply',
      'lines_sum_to_taxable_value',
      'taxes_sum_to_total',
      'amount_in_words_matches_total',
    ];
    expect(listChecks('invoice')).toEqual([...parties, ...amounts, 'qr_matches_printed']);
    expect(listChecks('po')).toEqual([...parties, ...amounts]);
    expect(listChecks('grn')).toEqual([...parties, 'grn_quantities_balance']);
  });

  it('hands out copies, so a caller cannot change the profiles', () => {
    listHeaderFields('invoice').push('extra');
    listLineFields('grn').length = 0;
    expect(listHeaderFields('invoice')).toEqual(contractHeader.invoice);
    expect(listLineFields('grn')).toEqual(contractLines.grn);
  });
});

describe('ExtractionResultSchema', () => {
  it('accepts the sample of the contract', () => {
    const parsed = ExtractionResultSchema.parse(contractSample);
    expect(parsed.contract).toBe(EXTRACTION_CONTRACT);
    expect(parsed.fields.documentNumber).toBe('AC/25-26/0142');
    expect(parsed.lineItems[0]?.quantity).toBe(120);
  });

  it('accepts a document that could not be read, with warnings and line provenance', () => {
    const failed = {
      ...contractSample,
      file: 'broken.pdf',
      documentType: null,
      pages: 0,
      source: null,
      fields: {},
      lineItems: [],
      checks: [],
      confidence: {},
      provenance: {},
      error: { code: 'encrypted_pdf', message: 'The PDF is password-protected.' },
      warnings: ['page 2 has no text layer'],
    };
    expect(ExtractionResultSchema.safeParse(failed).success).toBe(true);
    const withLineProvenance = {
      ...contractSample,
      fields: { ...contractSample.fields, total: 123456.78, irn: null },
      lineItems: [
        {
          description: 'MS Angle 40x40x5',
          amount: 6000,
          provenance: { amount: { page: 2, bbox: [500, 300, 540, 312], source: 'ocr' } },
        },
      ],
    };
    expect(ExtractionResultSchema.safeParse(withLineProvenance).success).toBe(true);
  });

  it.each([
    ['another contract version', { contract: 'extraction/v2' }],
    ['an unknown document type', { documentType: 'INVOICE' }],
    ['an unknown source', { source: 'pdf' }],
    ['a field value that is an object', { fields: { total: { value: 1 } } }],
    [
      'a bounding box of three numbers',
      { provenance: { total: { page: 1, bbox: [1, 2, 3], source: 'text' } } },
    ],
    [
      'a provenance source outside the contract',
      { provenance: { total: { page: 1, bbox: [1, 2, 3, 4], source: 'corrected' } } },
    ],
    ['a check code outside v1', { checks: [{ code: 'vibes', field: null, ok: true, message: '' }] }],
    ['an error code outside the contract', { error: { code: 'timeout', message: 'slow' } }],
    ['no lineItems', { lineItems: undefined }],
  ])('rejects %s', (_what, change) => {
    expect(ExtractionResultSchema.safeParse({ ...contractSample, ...change }).success).toBe(false);
  });
});

// A field list declared outside @bahi/contracts drifts from the contract: consumers derive theirs from
// listHeaderFields / listLineFields / extractionProfiles. An array literal naming both fields of one of
// these pairs is taken as such a copy.
const markerPairs = [
  ['vendorGstin', 'buyerGstin'],
  ['orderedQuantity', 'acceptedQuantity'],
  ['hsnSac', 'gstRate'],
];
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const scannedDirs = ['packages/engine/src', 'packages/engine/dev', 'apps/server/src', 'apps/web/src'];

function listSources(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((path) => !path.includes('/node_modules/'));
}

/** `path:line` of each array literal in a source text that names both fields of a marker pair. */
function findFieldLists(path: string, text: string): string[] {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isArrayLiteralExpression(node)) {
      const names = new Set(node.elements.filter(ts.isStringLiteralLike).map((e) => e.text));
      if (markerPairs.some((pair) => pair.every((name) => names.has(name)))) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push(`${path}:${line + 1}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('field lists', () => {
  it('recognises a copied list, and not a pair of pairs (self-test of the scan)', () => {
    const copy = [
      'const A = 1;',
      "export const F = new Set(['documentNumber', 'vendorGstin', `buyerGstin`]);",
    ];
    expect(findFieldLists('a.ts', copy.join('\n'))).toEqual(['a.ts:2']);
    expect(
      findFieldLists('b.tsx', "const g = <T,>(x: T) => x; g(['orderedQuantity', 'acceptedQuantity']);"),
    ).toEqual(['b.tsx:1']);
    const pairs =
      "for (const [g, s] of [['vendorGstin', 'vendorStateCode'], ['buyerGstin', 'buyerStateCode']]) {}";
    expect(findFieldLists('c.ts', pairs)).toEqual([]);
  });

  it('are declared only in @bahi/contracts', () => {
    const sources = scannedDirs.flatMap(listSources);
    expect(sources.length).toBeGreaterThan(10);
    const copies = sources.flatMap((path) =>
      findFieldLists(path, readFileSync(join(repoRoot, path), 'utf8')),
    );
    expect(copies).toEqual([]);
  });
});
