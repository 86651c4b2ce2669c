/**
 * GST rates and the intra-/inter-state split.
 *
 * Sources: CGST rate notifications 1/2017 onward (slabs 0, 5, 12, 18, 28 plus the special rates
 * 0.1 for supplies to merchant exporters, 0.25 rough diamonds, 1.5 cut diamonds, 3 gold/silver,
 * 6 for a few goods such as bricks under the special scheme), and the 56th GST Council meeting
 * ("GST 2.0", effective 22 September 2025: CGST notification 9/2025) which folded 12% and 28%
 * into 5% and 18% and added a 40% rate for luxury and sin goods.
 */

/** First day of the GST 2.0 rate structure. */
export const GST_2_0_EFFECTIVE_DATE = '2025-09-22';

const SLABS_BEFORE_GST_2_0: readonly number[] = [0, 0.1, 0.25, 1.5, 3, 5, 6, 12, 18, 28];
// 28% stays valid after 22 Sep 2025: tobacco, pan masala and similar notified goods keep the old
// 28% rate (plus compensation cess) until the compensation-cess loans are repaid, so invoices for
// them legitimately carry 28% under GST 2.0. Dropping it would flag correct invoices.
const SLABS_FROM_GST_2_0: readonly number[] = [0, 0.1, 0.25, 1.5, 3, 5, 18, 28, 40];
const ALL_SLABS: readonly number[] = [...new Set([...SLABS_BEFORE_GST_2_0, ...SLABS_FROM_GST_2_0])].sort(
  (a, b) => a - b,
);

/**
 * Total GST rates (percent, CGST+SGST or IGST) valid on an ISO date (YYYY-MM-DD). Without a date
 * (or with one that is not ISO) every rate valid at any time since 2017 is returned, because a
 * document whose date could not be read must not be rejected for using the rate of its own time.
 */
export function gstSlabsOn(isoDate?: string): number[] {
  if (isoDate === undefined || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(isoDate)) return [...ALL_SLABS];
  // ISO dates compare correctly as strings.
  return isoDate < GST_2_0_EFFECTIVE_DATE ? [...SLABS_BEFORE_GST_2_0] : [...SLABS_FROM_GST_2_0];
}

/** Whether a total GST rate in percent (18, not 0.18) is a valid slab on the date. */
export function isValidGstRate(rate: number, isoDate?: string): boolean {
  return gstSlabsOn(isoDate).some((slab) => Math.abs(slab - rate) < 1e-9);
}

/**
 * Whether a single head's rate (CGST, SGST/UTGST: half a slab; IGST: a whole slab) is valid on
 * the date, e.g. CGST 9 or IGST 18.
 */
export function isValidGstHeadRate(rate: number, head: 'cgst' | 'sgst' | 'igst', isoDate?: string): boolean {
  const factor = head === 'igst' ? 1 : 2;
  return isValidGstRate(rate * factor, isoDate);
}

/** Two-digit form so '9' and '09' compare equal. */
function normalizeCode(code: string): string {
  return code.trim().padStart(2, '0');
}

/**
 * Intra-state when the supplier's state (first two characters of its GSTIN) equals the place of
 * supply, else inter-state. Supplies to SEZ units and exports are inter-state whatever the
 * states; callers that know the supply is to an SEZ must treat it as 'inter' themselves.
 */
export function supplyTypeFor(supplierStateCode: string, placeOfSupplyCode: string): 'intra' | 'inter' {
  return normalizeCode(supplierStateCode) === normalizeCode(placeOfSupplyCode) ? 'intra' : 'inter';
}

/** The tax heads an invoice should carry: CGST+SGST (or UTGST) within a state, IGST across states. */
export function expectedTaxHeads(supplierStateCode: string, placeOfSupplyCode: string): 'cgst_sgst' | 'igst' {
  return supplyTypeFor(supplierStateCode, placeOfSupplyCode) === 'intra' ? 'cgst_sgst' : 'igst';
}

/**
 * Split a total rate into heads: intra-state halves it into CGST and SGST/UTGST (18 → 9 + 9,
 * 0.25 → 0.125 + 0.125), inter-state puts it all in IGST.
 */
export function splitGstRate(
  totalRate: number,
  supply: 'intra' | 'inter',
): { cgst: number; sgst: number; igst: number } {
  if (supply === 'inter') return { cgst: 0, sgst: 0, igst: totalRate };
  // Round to 4 decimals: halves of valid slabs need at most 3 (0.125), and this removes float noise.
  const half = Math.round((totalRate / 2) * 10_000) / 10_000;
  return { cgst: half, sgst: half, igst: 0 };
}
