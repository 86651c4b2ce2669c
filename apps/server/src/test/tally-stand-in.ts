import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { xmlText } from '@bahi/compliance';
import { childText, findAll, findFirst, parseXml, type XmlNode } from '../adapters/books/xml-tree.ts';

// A loopback stand-in of Tally Prime's XML server, for tests: one company with seeded ledgers; Import Data
// of Vouchers and All Masters; an Export of the ledger collection. It refuses what Tally refuses (an
// unknown ledger, a voucher whose entries do not sum to zero, another company) with LINEERROR, creates or
// alters by REMOTEID, and answers with Tally's counters. Faults: drop the next requests' connections.

/** A ledger of the stand-in company. */
export interface StandInLedger {
  name: string;
  parent: string;
  gstin?: string | null;
  state?: string | null;
}

/** A voucher the stand-in holds. */
export interface StandInVoucher {
  id: number;
  remoteId: string;
  reference: string;
  party: string;
  date: string;
  /** Ledger → amount in paise, Tally's signs. */
  entries: Array<{ ledger: string; amount: number }>;
  cancelled: boolean;
  /** How many times it was created (must stay 1) and altered. */
  created: number;
  altered: number;
}

/** The running stand-in. */
export interface TallyStandIn {
  port: number;
  company: string;
  ledgers: Map<string, StandInLedger>;
  vouchers: Map<string, StandInVoucher>;
  /** Every request body received. */
  requests: string[];
  /** Voucher messages received (one per VOUCHER element). */
  voucherMessages: number;
  /** Drop the connection of the next `n` voucher imports after applying them (a crash between send and answer). */
  dropAfterApply(n: number): void;
  /** Refuse the next `n` requests by closing the connection before reading them. */
  refuse(n: number): void;
  close(): Promise<void>;
}

/** Ledgers a freshly created Indian company holds plus the GST and purchase ledgers the tests map. */
export const DEFAULT_LEDGERS: StandInLedger[] = [
  { name: 'Cash', parent: 'Cash-in-Hand' },
  { name: 'Purchase @18%', parent: 'Purchase Accounts' },
  { name: 'Purchase @5%', parent: 'Purchase Accounts' },
  { name: 'Purchase @12%', parent: 'Purchase Accounts' },
  { name: 'Purchase @0%', parent: 'Purchase Accounts' },
  { name: 'Input IGST @18%', parent: 'Duties & Taxes' },
  { name: 'Input CGST @9%', parent: 'Duties & Taxes' },
  { name: 'Input SGST @9%', parent: 'Duties & Taxes' },
  { name: 'Input IGST @5%', parent: 'Duties & Taxes' },
  { name: 'Input CGST @2.5%', parent: 'Duties & Taxes' },
  { name: 'Input SGST @2.5%', parent: 'Duties & Taxes' },
  { name: 'Input Cess', parent: 'Duties & Taxes' },
  { name: 'Round Off', parent: 'Indirect Expenses' },
  { name: 'TDS Payable 194C', parent: 'Duties & Taxes' },
  { name: 'TDS Payable 194J', parent: 'Duties & Taxes' },
];

const paise = (s: string | null) => Math.round(Number((s ?? '0').replace(/,/g, '')) * 100);

function answer(counters: Record<string, number>, lastVchId: number, errors: string[]): string {
  const names = [
    'CREATED',
    'ALTERED',
    'DELETED',
    'LASTVCHID',
    'LASTMID',
    'COMBINED',
    'IGNORED',
    'ERRORS',
    'CANCELLED',
    'EXCEPTIONS',
  ];
  const body = names
    .map((n) => `<${n}>${n === 'LASTVCHID' ? lastVchId : (counters[n] ?? 0)}</${n}>`)
    .join('');
  const lines = errors.map((e) => `<LINEERROR>${xmlText(e)}</LINEERROR>`).join('');
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DESC></DESC><DATA><IMPORTRESULT>${body}${lines}</IMPORTRESULT></DATA></BODY></ENVELOPE>`;
}

/** Starts the stand-in on a free loopback port. */
export async function startTallyStandIn(
  options: { company?: string; ledgers?: StandInLedger[] } = {},
): Promise<TallyStandIn> {
  const company = options.company ?? 'Demo Traders Pvt Ltd';
  const ledgers = new Map((options.ledgers ?? DEFAULT_LEDGERS).map((l) => [l.name, { ...l }]));
  const vouchers = new Map<string, StandInVoucher>();
  let nextId = 100;
  let drop = 0;
  let refuse = 0;

  function importVoucher(v: XmlNode, counters: Record<string, number>, errors: string[]): number {
    const remoteId = v.attrs.REMOTEID ?? '';
    const action = (v.attrs.ACTION ?? 'Create').toLowerCase();
    const existing = vouchers.get(remoteId);
    if (action === 'cancel') {
      if (!existing) return fail(errors, counters, `Voucher with REMOTEID '${remoteId}' does not exist`);
      existing.cancelled = true;
      counters.CANCELLED = (counters.CANCELLED ?? 0) + 1;
      return existing.id;
    }
    if (action === 'alter' && !existing)
      return fail(errors, counters, `Voucher with REMOTEID '${remoteId}' does not exist`);
    const entries = findAll(v, 'ALLLEDGERENTRIES.LIST').map((e) => ({
      ledger: childText(e, 'LEDGERNAME') ?? '',
      amount: paise(childText(e, 'AMOUNT')),
    }));
    for (const e of entries)
      if (!ledgers.has(e.ledger)) return fail(errors, counters, `Could not find Ledger '${e.ledger}'`);
    const sum = entries.reduce((s, e) => s + e.amount, 0);
    if (sum !== 0 || entries.length < 2) {
      const dr = -entries.filter((e) => e.amount < 0).reduce((s, e) => s + e.amount, 0);
      const cr = entries.filter((e) => e.amount > 0).reduce((s, e) => s + e.amount, 0);
      return fail(
        errors,
        counters,
        `Voucher totals do not match! Dr: ${(dr / 100).toFixed(2)} Dr Cr: ${(cr / 100).toFixed(2)} Cr Diff: ${(Math.abs(sum) / 100).toFixed(2)}`,
      );
    }
    const fields = {
      reference: childText(v, 'REFERENCE') ?? '',
      party: childText(v, 'PARTYLEDGERNAME') ?? '',
      date: childText(v, 'DATE') ?? '',
      entries,
      cancelled: false,
    };
    if (existing) {
      Object.assign(existing, fields, { altered: existing.altered + 1 });
      counters.ALTERED = (counters.ALTERED ?? 0) + 1;
      return existing.id;
    }
    const id = nextId++;
    vouchers.set(remoteId, { id, remoteId, ...fields, created: 1, altered: 0 });
    counters.CREATED = (counters.CREATED ?? 0) + 1;
    return id;
  }

  function fail(errors: string[], counters: Record<string, number>, text: string): number {
    errors.push(text);
    counters.ERRORS = (counters.ERRORS ?? 0) + 1;
    return 0;
  }

  function importLedger(l: XmlNode, counters: Record<string, number>, errors: string[]): void {
    const name = l.attrs.NAME ?? childText(l, 'NAME') ?? '';
    if (ledgers.has(name)) {
      fail(errors, counters, `Ledger '${name}' already exists`);
      return;
    }
    const parent = childText(l, 'PARENT') ?? '';
    if (!['Sundry Creditors', 'Sundry Debtors', 'Purchase Accounts', 'Duties & Taxes'].includes(parent)) {
      fail(errors, counters, `Could not find Group '${parent}'`);
      return;
    }
    ledgers.set(name, {
      name,
      parent,
      gstin: childText(l, 'PARTYGSTIN'),
      state: childText(l, 'LEDSTATENAME'),
    });
    counters.CREATED = (counters.CREATED ?? 0) + 1;
  }

  function handle(xml: string): { body: string; applied: boolean } {
    let root: XmlNode;
    try {
      root = parseXml(xml);
    } catch {
      return { body: answer({ ERRORS: 1 }, 0, ['Unknown Request, cannot be processed']), applied: false };
    }
    const request = (findFirst(root, 'TALLYREQUEST')?.text ?? '').trim().toLowerCase();
    const asked = findFirst(root, 'SVCURRENTCOMPANY')?.text.trim();
    if (asked && asked !== company)
      return {
        body: answer({ ERRORS: 1 }, 0, [`Could not set 'SVCurrentCompany' to '${asked}'`]),
        applied: false,
      };
    if (request === 'export') {
      const list = [...ledgers.values()]
        .map(
          (l) =>
            `<LEDGER NAME="${xmlText(l.name)}" RESERVEDNAME=""><PARENT>${xmlText(l.parent)}</PARENT>${l.gstin ? `<PARTYGSTIN>${xmlText(l.gstin)}</PARTYGSTIN>` : ''}</LEDGER>`,
        )
        .join('');
      return {
        body: `<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DESC></DESC><DATA><COLLECTION>${list}</COLLECTION></DATA></BODY></ENVELOPE>`,
        applied: false,
      };
    }
    if (request !== 'import data' && request !== 'import')
      return { body: answer({ ERRORS: 1 }, 0, ['Unknown Request, cannot be processed']), applied: false };
    const counters: Record<string, number> = {};
    const errors: string[] = [];
    let last = 0;
    for (const v of findAll(root, 'VOUCHER')) {
      stand.voucherMessages++;
      last = importVoucher(v, counters, errors) || last;
    }
    for (const l of findAll(root, 'LEDGER')) importLedger(l, counters, errors);
    return { body: answer(counters, last, errors), applied: true };
  }

  const server: Server = createServer((req, res) => {
    if (refuse > 0) {
      refuse--;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const xml = Buffer.concat(chunks).toString('utf8');
      stand.requests.push(xml);
      const { body, applied } = handle(xml);
      if (applied && drop > 0) {
        drop--;
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stand: TallyStandIn = {
    port: (server.address() as AddressInfo).port,
    company,
    ledgers,
    vouchers,
    requests: [],
    voucherMessages: 0,
    dropAfterApply: (n) => {
      drop = n;
    },
    refuse: (n) => {
      refuse = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
