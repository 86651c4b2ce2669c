import { computeGstinCheckChar } from '@bahi/india';
import { describe, expect, it } from 'vitest';
import type { Candidate } from './header.ts';
import { buyerStateFromSupply, type GstinCandidate } from './party-gstins.ts';

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

  it('derives nothing when another GSTIN is printed, or the block names its own state', () => {
    const other = printed(gstin('29AAFCK5678G1Z'));
    expect(buyerStateFromSupply(noBuyer, vendor, [printed(String(vendor.value)), other], supply)).toBeNull();
    const own = { gstin: null, stateCode: at('stateCode', '27') };
    expect(buyerStateFromSupply(own, vendor, [], supply)).toBeNull();
    expect(buyerStateFromSupply(noBuyer, vendor, [], undefined)).toBeNull();
  });
});
