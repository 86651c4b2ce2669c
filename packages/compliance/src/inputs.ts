// Vendor profiles (`--vendors`) and ledger names (`--ledgers`) checked from parsed JSON: a wrong
// shape is refused with a message saying where, never half-used.
import { isoDate } from './invoice-number.ts';
import type { LedgerNames } from './tally-voucher.ts';
import { isTdsSection, type VendorProfile } from './tds.ts';

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPan = (v: unknown) => typeof v === 'string' && /^[A-Z]{5}[0-9]{4}[A-Z]$/.test(v.trim().toUpperCase());

function ldcError(ldc: unknown, at: string): string | null {
  if (!isObject(ldc)) return `${at}.ldc must be an object`;
  if (!isTdsSection(ldc.section)) return `${at}.ldc.section is not a TDS section Bahi knows`;
  if (typeof ldc.rate !== 'number' || !(ldc.rate >= 0)) return `${at}.ldc.rate must be a percentage`;
  if (!isoDate(ldc.from) || !isoDate(ldc.to)) return `${at}.ldc.from and .to must be dates (YYYY-MM-DD)`;
  if (typeof ldc.limit !== 'number' || !(ldc.limit >= 0))
    return `${at}.ldc.limit must be an amount in rupees`;
  return null;
}

/** Vendor profiles from parsed JSON (an array), or a message saying what is wrong. */
export function parseVendorProfiles(json: unknown): VendorProfile[] | string {
  if (!Array.isArray(json)) return 'the vendor profiles must be a JSON array';
  const out: VendorProfile[] = [];
  for (const [i, v] of json.entries()) {
    const at = `vendor ${i + 1}`;
    if (!isObject(v)) return `${at} is not an object`;
    if (!isPan(v.pan)) return `${at}: pan must be a PAN (AAAAA9999A)`;
    if (v.gstin !== undefined && typeof v.gstin !== 'string') return `${at}: gstin must be text`;
    if (v.section !== undefined && !isTdsSection(v.section))
      return `${at}: section is not a TDS section Bahi knows`;
    if (v.panOperative !== undefined && typeof v.panOperative !== 'boolean')
      return `${at}: panOperative must be true or false`;
    if (v.ldc !== undefined) {
      const e = ldcError(v.ldc, at);
      if (e) return e;
    }
    out.push({
      pan: (v.pan as string).trim().toUpperCase(),
      ...(typeof v.gstin === 'string' ? { gstin: v.gstin.replace(/\s+/g, '').toUpperCase() } : {}),
      ...(v.section !== undefined ? { section: v.section as VendorProfile['section'] } : {}),
      ...(v.panOperative !== undefined ? { panOperative: v.panOperative as boolean } : {}),
      ...(v.ldc !== undefined ? { ldc: v.ldc as VendorProfile['ldc'] } : {}),
    });
  }
  return out;
}

const MAPS = ['parties', 'purchase', 'igst', 'cgst', 'sgst'] as const;

/** Ledger names from parsed JSON, or a message saying what is wrong. */
export function parseLedgerNames(json: unknown): LedgerNames | string {
  if (!isObject(json)) return 'the ledger names must be a JSON object';
  const out: LedgerNames = {};
  for (const key of MAPS) {
    const map = json[key];
    if (map === undefined) continue;
    if (!isObject(map) || Object.values(map).some((n) => typeof n !== 'string' || !n.trim()))
      return `${key} must map to ledger names (text)`;
    const clean: Record<string, string> = {};
    for (const [k, n] of Object.entries(map)) {
      const name = (n as string).trim();
      if (key === 'parties') clean[k.replace(/\s+/g, '').toUpperCase()] = name;
      else clean[Number.isFinite(Number(k)) ? String(Number(k)) : k] = name;
    }
    out[key] = clean;
  }
  for (const key of ['cess', 'roundOff'] as const) {
    const name = json[key];
    if (name === undefined) continue;
    if (typeof name !== 'string' || !name.trim()) return `${key} must be a ledger name (text)`;
    out[key] = name.trim();
  }
  return out;
}
