import { describeReviewReason } from '@bahi/contracts';
import type { ExtractionResult } from '@bahi/engine';
import { describe, expect, it } from 'vitest';
import { buildDocumentOutcome, describeExtractionError, listReviewReasons } from './document-outcome.ts';

describe('engine errors in plain words', () => {
  it('says how many pages a too-long document has and how many are read', () => {
    expect(describeExtractionError({ code: 'too_large', message: '1000 pages (limit 100)' })).toBe(
      'This document has 1,000 pages; at most 100 are read from one file. Split it into smaller files and upload them again.',
    );
  });

  it('keeps the general sentence for other errors', () => {
    expect(
      describeExtractionError({ code: 'too_large', message: 'page too large (14400 × 14400 pt)' }),
    ).toMatch(/^This document is too large to read/);
    // The engine's time limit is its own error, with what to try.
    expect(
      describeExtractionError({
        code: 'too_large',
        message: 'processing exceeded the time limit of 120000 ms',
      }),
    ).toMatch(/^This document took too long to read, so it was stopped\. If it is a scan/);
    expect(describeExtractionError({ code: 'encrypted_pdf', message: 'needs a password' })).toMatch(
      /password-protected/,
    );
  });
});

describe('one definition of "needs review"', () => {
  const clean = {
    contract: 'extraction/v1',
    file: 'a.pdf',
    documentType: 'invoice',
    pages: 1,
    source: 'text',
    fields: {
      documentNumber: 'INV-1',
      documentDate: '2025-04-01',
      vendorName: 'Acme Traders',
      total: 1180,
      buyerName: 'Asha Traders Pvt Ltd',
      buyerGstin: '27AAPFU0939F1ZV',
    },
    lineItems: [],
    checks: [{ code: 'taxes_sum_to_total', ok: true }],
    confidence: { documentNumber: 0.99, total: 0.95 },
    provenance: {},
    error: null,
  } as unknown as ExtractionResult;
  const ours = { organizationGstins: ['27AAPFU0939F1ZV'] };

  it('is OK only with every check passed, the critical fields read and confident', () => {
    expect(buildDocumentOutcome(clean, ours)).toMatchObject({
      status: 'done',
      reviewFlag: 'ok',
      failedChecks: [],
    });
  });

  it('needs review for a failed check, a missing critical field, low confidence or a possible duplicate', () => {
    const missing = { ...clean, fields: { ...clean.fields, documentDate: null, total: null } };
    expect(listReviewReasons(missing as ExtractionResult, ours)).toEqual([
      'missing:documentDate',
      'missing:total',
    ]);
    const unsure = { ...clean, confidence: { documentNumber: 0.5 } };
    expect(listReviewReasons(unsure as ExtractionResult, ours)).toEqual(['low_confidence:documentNumber']);
    const failed = { ...clean, checks: [{ code: 'gstin_checksum', ok: false }] };
    expect(buildDocumentOutcome(failed as ExtractionResult, ours)).toMatchObject({
      status: 'needs_review',
      reviewFlag: 'review',
      failedChecks: ['gstin_checksum'],
    });
    expect(buildDocumentOutcome(clean, { ...ours, duplicateOf: 'an-earlier-document' })).toMatchObject({
      status: 'needs_review',
      failedChecks: ['possible_duplicate'],
      duplicateOf: 'an-earlier-document',
    });
    // The words every screen and sheet shows for them.
    expect(describeReviewReason('missing:total')).toBe('No Total was read');
    expect(describeReviewReason('low_confidence:vendorGstin')).toBe(
      'Vendor GSTIN was read with low confidence',
    );
    expect(describeReviewReason('possible_duplicate')).toMatch(/already read/);
    expect(describeReviewReason('gstin_checksum')).toMatch(/check digit/);
  });
});

describe('billed to us', () => {
  const invoice = (fields: Record<string, unknown>, documentType = 'invoice') =>
    ({
      contract: 'extraction/v1',
      documentType,
      fields: {
        documentNumber: 'INV-1',
        documentDate: '2025-04-01',
        vendorName: 'Acme',
        total: 1180,
        ...fields,
      },
      lineItems: [],
      checks: [],
      confidence: {},
      provenance: {},
      error: null,
    }) as unknown as ExtractionResult;
  const org = { organizationGstins: ['27AAPFU0939F1ZV', '29AAPFU0939F1ZR'] };

  it("is OK when the buyer GSTIN is one of the organisation's, however it is spaced or cased", () => {
    expect(buildDocumentOutcome(invoice({ buyerGstin: '29aapfu0939f1zr' }), org)).toMatchObject({
      status: 'done',
      failedChecks: [],
    });
  });

  it("needs review for another company's GSTIN, naming it, and for a consumer bill", () => {
    const other = buildDocumentOutcome(
      invoice({ buyerGstin: '36DJKCB7560V1Z0', buyerName: 'Bhatt, Textiles' }),
      org,
    );
    expect(other).toMatchObject({ status: 'needs_review', reviewFlag: 'review' });
    expect(other.failedChecks).toHaveLength(1);
    expect(describeReviewReason(other.failedChecks[0]!)).toBe(
      "Billed to Bhatt, Textiles (GSTIN 36DJKCB7560V1Z0), which is not one of your organisation's GSTINs: no input tax credit can be claimed on it",
    );
    // One token even with a comma in the name: the sheet joins reasons with commas.
    expect(other.failedChecks[0]).not.toContain(',');
    const consumer = buildDocumentOutcome(invoice({ buyerGstin: null, buyerName: 'Walk-in customer' }), org);
    expect(consumer).toMatchObject({ status: 'needs_review', failedChecks: ['no_buyer_gstin'] });
    expect(describeReviewReason('no_buyer_gstin')).toMatch(
      /No buyer GSTIN was read: if this is a consumer bill/,
    );
  });

  it('does not call a misread GSTIN another company: its failed check asks for a look instead', () => {
    const slip = invoice({ buyerGstin: '29AAPFU0939F1ZX', buyerName: 'Our own company' });
    (slip as unknown as { checks: unknown[] }).checks = [
      { code: 'gstin_checksum', field: 'buyerGstin', ok: false, message: 'check character does not match' },
    ];
    const outcome = buildDocumentOutcome(slip, org);
    expect(outcome.status).toBe('needs_review');
    expect(outcome.failedChecks).toEqual(['gstin_checksum']);
  });

  it('says so, and holds nothing back, when the organisation has no GSTIN yet', () => {
    const outcome = buildDocumentOutcome(invoice({ buyerGstin: '36DJKCB7560V1Z0' }), {
      organizationGstins: [],
    });
    expect(outcome).toMatchObject({ status: 'done', reviewFlag: 'ok', failedChecks: ['buyer_not_checked'] });
    expect(describeReviewReason('buyer_not_checked')).toMatch(/organisation profile has no GSTIN yet/);
  });

  it('does not check purchase orders or goods receipts', () => {
    expect(listReviewReasons(invoice({ buyerGstin: null }, 'po'), org)).toEqual([]);
  });
});
