import { computeGstinCheckChar } from '@bahi/india';
import { describe, expect, it } from 'vitest';
import { layoutCellWords } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import type { Word } from '../types.ts';
import type { Candidate } from './header.ts';
import {
  buyerStateFromSupply,
  findGstinCandidates,
  type GstinCandidate,
  resolvePartyGstins,
} from './party-gstins.ts';

const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const at = (field: string, value: string, score = 0.9): Candidate => ({
  field,
  value,
  page: 1,
  bbox: [0, 0, 10, 10],
  source: 'text',
  score,
});
const printed = (value: string): GstinCandidate => ({
  ...at('gstin', value),
  role: null,
  valid: true,
  repaired: false,
  evidence: 'letterhead',
});

describe('buyer state from the place of supply', () => {
  const vendor = at('gstin', gstin('27AAECS1234F1Z'));
  const supply = at('placeOfSupply', '29');
  const noBuyer = { gstin: null, stateCode: null };

  it('takes the place of supply for a buyer with no GSTIN when only the supplier’s is printed, below review', () => {
    const state = buyerStateFromSupply(noBuyer, vendor, [printed(String(vendor.value))], supply);
    expect(state?.value).toBe('29');
    expect(state?.score).toBeLessThanOrEqual(0.6);
  });

  it('takes it too when the only other GSTIN printed is of the supply state (a platform’s)', () => {
    const platform = printed(gstin('29AAFCK5678G1Z'));
    const state = buyerStateFromSupply(noBuyer, vendor, [printed(String(vendor.value)), platform], supply);
    expect(state?.value).toBe('29');
  });

  it('derives nothing when another GSTIN of another state is printed, or the block names its own state', () => {
    const other = printed(gstin('33AAFCK5678G1Z'));
    expect(buyerStateFromSupply(noBuyer, vendor, [printed(String(vendor.value)), other], supply)).toBeNull();
    const own = { gstin: null, stateCode: at('stateCode', '27') };
    expect(buyerStateFromSupply(own, vendor, [], supply)).toBeNull();
    expect(buyerStateFromSupply(noBuyer, vendor, [], undefined)).toBeNull();
  });
});

describe('a GSTIN printed alone', () => {
  const receipt = (lines: Array<[number, string]>) => {
    const words: Word[] = [];
    for (const [y, text] of lines)
      words.push(
        ...layoutCellWords(40, y, text, { charWidth: 5, space: 3, height: 10, source: 'ocr', conf: 0.95 }),
      );
    return buildLayout([{ page: 1, width: 300, height: 800, words, source: 'ocr' }]);
  };
  // The items start at the top: the footer is below them, out of any letterhead.
  const tableTop = () => 100;
  const seller = gstin('27AAECS1234F1Z');

  it("is the supplier's on an invoice, below review confidence", () => {
    const layout = receipt([[700, `GST-${seller}`]]);
    const found = findGstinCandidates(layout, 'invoice', () => false, tableTop);
    const { vendor, buyer } = resolvePartyGstins({ vendor: null, buyer: null }, found, 'invoice');
    expect(vendor?.value).toBe(seller);
    expect(vendor?.score).toBeLessThanOrEqual(0.7);
    expect(buyer).toBeNull();
  });

  it('is nobody’s when a second GSTIN is printed', () => {
    const layout = receipt([
      [700, `GST-${seller}`],
      [720, `GSTIN ${gstin('29AAFCK5678G1Z')}`],
    ]);
    const found = findGstinCandidates(layout, 'invoice', () => false, tableTop);
    expect(resolvePartyGstins({ vendor: null, buyer: null }, found, 'invoice').vendor).toBeNull();
  });
});

describe('a GSTIN under a heading with its value beside it', () => {
  it('is the party’s whose heading stands left of the name cell ("M/S | name")', () => {
    const words: Word[] = [];
    const cell = (x: number, y: number, text: string) =>
      words.push(
        ...layoutCellWords(x, y, text, { charWidth: 5, space: 3, height: 10, source: 'ocr', conf: 0.95 }),
      );
    cell(120, 40, 'Sahyadri Pumps');
    cell(120, 60, `GSTIN : ${gstin('27AAECS1234F1Z')}`);
    cell(50, 120, 'M/S');
    cell(120, 120, 'Meher Tools & Dies');
    cell(400, 120, 'Invoice No.');
    cell(50, 160, 'GSTIN');
    cell(120, 160, gstin('29AAFCK5678G1Z'));
    const layout = buildLayout([{ page: 1, width: 595, height: 842, words, source: 'ocr' }]);
    const found = findGstinCandidates(
      layout,
      'invoice',
      () => false,
      () => 400,
    );
    const { vendor, buyer } = resolvePartyGstins({ vendor: null, buyer: null }, found, 'invoice');
    expect(vendor?.value).toBe(gstin('27AAECS1234F1Z'));
    expect(buyer?.value).toBe(gstin('29AAFCK5678G1Z'));
  });
});
