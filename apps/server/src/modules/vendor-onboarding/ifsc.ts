import { createRequire } from 'node:module';
import { IFSC_PATTERN } from '@bahi/contracts';

// IFSC codes are checked against the bank and branch list bundled in the `ifsc` npm package (Razorpay's
// release of the RBI list), read from disk: nothing is fetched. Only the JSON data is read; the package's
// own entry point (which makes HTTP calls for branch details) is never loaded.

const require = createRequire(import.meta.url);

/** Per bank code, its branch codes (numbers and strings as the package lists them). */
let branches: Map<string, Set<string>> | undefined;
let bankNames: Record<string, string> | undefined;

function load(): { branches: Map<string, Set<string>>; bankNames: Record<string, string> } {
  if (!branches || !bankNames) {
    const raw = require('ifsc/src/IFSC.json') as Record<string, Array<string | number>>;
    branches = new Map(Object.entries(raw).map(([bank, list]) => [bank, new Set(list.map(String))]));
    bankNames = require('ifsc/src/banknames.json') as Record<string, string>;
  }
  return { branches, bankNames };
}

/** What the list says of an IFSC. */
export type IfscLookup =
  | { ok: true; bankName: string }
  | { ok: false; reason: 'format' | 'bank' | 'branch'; message: string };

/** Checks an IFSC against the bundled bank and branch list; the message says what is wrong in words. */
export function lookupIfsc(code: string): IfscLookup {
  const ifsc = code.trim().toUpperCase();
  if (!IFSC_PATTERN.test(ifsc))
    return {
      ok: false,
      reason: 'format',
      message:
        'An IFSC is 11 characters: four letters, a zero, then six letters or digits (like HDFC0001234)',
    };
  const { branches: all, bankNames: names } = load();
  const bank = ifsc.slice(0, 4);
  const list = all.get(bank);
  if (!list)
    return {
      ok: false,
      reason: 'bank',
      message: `No bank has the code ${bank}: check the IFSC on the cheque`,
    };
  const branch = ifsc.slice(5);
  const key = /^\d+$/.test(branch) ? String(Number.parseInt(branch, 10)) : branch;
  const bankName = names[bank] ?? bank;
  if (!list.has(key))
    return {
      ok: false,
      reason: 'branch',
      message: `${bankName} has no branch ${ifsc}: check the IFSC on the cheque`,
    };
  return { ok: true, bankName };
}
