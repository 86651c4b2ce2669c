import type { LedgerMapping, LedgerMappingView } from '@bahi/contracts';

/** The maps of the mapping keyed by GST rate. */
export type RateMap = 'purchase' | 'igst' | 'cgst' | 'sgst';

/** Half a GST rate: CGST and SGST each carry half of it. */
export const half = (rate: string) => String(Number(rate) / 2);

/** A refusal in words for a toast. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The mapping as first shown: what is saved, else Bahi's suggestion for each supplier. */
export function initialMapping(view: LedgerMappingView): LedgerMapping {
  const parties = { ...view.mapping.parties };
  for (const p of view.parties)
    if (p.gstin && !parties[p.gstin] && p.suggested) parties[p.gstin] = p.suggested;
  return { ...view.mapping, parties };
}

/** The mapping as saved: names trimmed, empty boxes left out. */
export function cleanMapping(m: LedgerMapping): LedgerMapping {
  const drop = (r: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(r)
        .filter(([, x]) => x.trim())
        .map(([k, x]) => [k, x.trim()]),
    );
  return {
    parties: drop(m.parties),
    purchase: drop(m.purchase),
    igst: drop(m.igst),
    cgst: drop(m.cgst),
    sgst: drop(m.sgst),
    tdsPayable: drop(m.tdsPayable),
    cess: m.cess?.trim() || null,
    roundOff: m.roundOff?.trim() || null,
  };
}

/** The ledger name a supplier gets in Tally: the one mapped to its GSTIN, else its own name. */
export const partyLedgerName = (mapping: LedgerMapping, p: LedgerMappingView['parties'][number]): string =>
  (p.gstin && mapping.parties[p.gstin]) || p.vendorName;
