import type { TdsSectionName, VendorTds } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';

/** The profile in words: `194C · PAN inoperative · certificate 0.5 % to 31/03/2026`. */
export function describe(tds: VendorTds): string {
  const parts = [tds.section ? `${tds.section} on every line` : 'by SAC'];
  if (!tds.panOperative) parts.push('PAN inoperative');
  if (tds.ldc)
    parts.push(
      `certificate ${tds.ldc.section} at ${tds.ldc.rate}% to ${formatIndianDate(tds.ldc.to)} (₹${formatIndianNumber(tds.ldc.limitRupees, 0)})`,
    );
  return parts.join(' · ');
}

/** The TDS dialog's fields as typed (text until saved). */
export interface Draft {
  section: string;
  panOperative: boolean;
  hasLdc: boolean;
  ldcNumber: string;
  ldcSection: string;
  ldcRate: string;
  ldcFrom: string;
  ldcTo: string;
  ldcLimit: string;
}

/** A saved profile as the dialog's fields. */
export const toDraft = (t: VendorTds): Draft => ({
  section: t.section ?? '',
  panOperative: t.panOperative,
  hasLdc: t.ldc !== null,
  ldcNumber: t.ldc?.number ?? '',
  ldcSection: t.ldc?.section ?? '194C',
  ldcRate: t.ldc ? String(t.ldc.rate) : '',
  ldcFrom: t.ldc?.from ?? '',
  ldcTo: t.ldc?.to ?? '',
  ldcLimit: t.ldc ? String(t.ldc.limitRupees) : '',
});

/** The dialog's fields as the profile the server takes (checked by `VendorTdsSchema`). */
export const fromDraft = (d: Draft) => ({
  section: (d.section || null) as TdsSectionName | null,
  panOperative: d.panOperative,
  ldc: d.hasLdc
    ? {
        number: d.ldcNumber.trim() || null,
        section: d.ldcSection as TdsSectionName,
        rate: d.ldcRate.trim() === '' ? Number.NaN : Number(d.ldcRate),
        from: d.ldcFrom,
        to: d.ldcTo,
        limitRupees: d.ldcLimit.trim() === '' ? Number.NaN : Number(d.ldcLimit.replace(/,/g, '')),
      }
    : null,
});
