import {
  type BooksAnswer,
  type BooksConnector,
  type BooksLedger,
  BooksUnreachableError,
  type PartyLedgerInput,
  type PushAction,
  type PushKnown,
} from './books-connector.ts';

// Zoho Books' REST API (v3): bills made from approved invoices. Zoho takes no idempotency key, so before a
// bill is created the vendor's bills are searched for the same bill number: a bill already there (made by
// an earlier push whose answer was lost, or keyed by hand) is updated in place, never doubled. Access is
// OAuth: a refresh token (kept encrypted by modules/books) buys an hour-long access token from the data
// centre's accounts server, cached per connection and bought again when Zoho answers 401.

/** Zoho's data centres (where the organisation's account lives), by their domain suffix. */
export const ZOHO_DATA_CENTRES = ['in', 'com', 'eu', 'com.au', 'jp', 'ca', 'sa'] as const;
/** A Zoho data centre. */
export type ZohoRegion = (typeof ZOHO_DATA_CENTRES)[number];

/** The API and accounts server of a data centre. */
export function zohoUrls(region: ZohoRegion): { api: string; accounts: string } {
  if (region === 'ca')
    return { api: 'https://www.zohoapis.ca/books/v3', accounts: 'https://accounts.zohocloud.ca' };
  return { api: `https://www.zohoapis.${region}/books/v3`, accounts: `https://accounts.zoho.${region}` };
}

/** One organisation's Zoho Books settings and OAuth client. */
export interface ZohoSettings {
  organizationId: string;
  region: ZohoRegion;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The servers to call (a test's stand-in); the region's by default. */
  urls?: { api: string; accounts: string };
  /** Access tokens by connection, shared by the connectors of one process. */
  tokenCache?: Map<string, { token: string; expiresAt: number }>;
  timeoutMs?: number;
}

/** A bill line: one GST rate's taxable value against its purchase account and tax. */
export interface ZohoBillLine {
  accountId: string;
  taxId: string | null;
  description: string;
  hsnOrSac: string | null;
  /** Rupees (exact to the paisa). */
  amount: number;
}

/** A bill as Bahi sends it (built by modules/books from the invoice and the Zoho mapping). */
export interface ZohoBill {
  vendorName: string;
  vendorGstin: string | null;
  billNumber: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Two-letter state codes (`MH`) as Zoho takes them. */
  sourceOfSupply: string | null;
  destinationOfSupply: string | null;
  lines: ZohoBillLine[];
  /** Rupees: the invoice's round-off. */
  adjustment: number;
  /** Rupees: the invoice's total, checked against the total Zoho works out. */
  total: number;
}

/** An account of the chart of accounts, a tax, as Zoho lists them. */
export interface ZohoAccount {
  id: string;
  name: string;
  type: string;
}
/** A tax (or tax group) of the organisation. */
export interface ZohoTax {
  id: string;
  name: string;
  percentage: number;
  /** `igst`, `cgst`, `sgst`, `cess`, … or `group` for a tax group (CGST + SGST). */
  kind: string;
}

/** Zoho's refusal: its `code` and `message`. */
export class ZohoError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ZohoError';
  }
}

type Json = Record<string, unknown>;
type Call = (
  method: string,
  path: string,
  init?: { query?: Json; json?: Json; form?: FormData },
) => Promise<Json>;
interface ZohoContact {
  contact_id: string;
  contact_name: string;
  gst_no?: string;
}
interface ZohoBillRow {
  bill_id: string;
  bill_number: string;
  total?: number;
  documents?: unknown[];
}

/** A company name as compared: lower case, letters and digits, without the legal form (Pvt Ltd, LLP, …). */
const nameKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/\b(private|pvt|limited|ltd|llp|inc|the|co|company)\b\.?/g, ' ')
    .replace(/[^a-z0-9]/g, '');

/** What to ask Zoho's search for: the name's first real word (its search matches parts of names). */
const searchWord = (s: string) =>
  s.split(/[^A-Za-z0-9&]+/).find((w) => w.length >= 3 && nameKey(w) !== '') ?? s.trim();

/** The OAuth side: an access token from the cache, or bought with the refresh token. */
function tokenSource(settings: ZohoSettings, accounts: string) {
  const cache = settings.tokenCache ?? new Map();
  const key = `${settings.organizationId}:${settings.clientId}:${settings.refreshToken.slice(-8)}`;
  return async function token(fresh: boolean): Promise<string> {
    const held = cache.get(key);
    if (!fresh && held && held.expiresAt > Date.now() + 60_000) return held.token;
    const body = new URLSearchParams({
      refresh_token: settings.refreshToken,
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      grant_type: 'refresh_token',
    });
    let answer: { access_token?: string; expires_in?: number; error?: string };
    try {
      const res = await fetch(`${accounts}/oauth/v2/token`, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(settings.timeoutMs ?? 30_000),
      });
      answer = (await res.json()) as typeof answer;
    } catch {
      throw new BooksUnreachableError(`Zoho's accounts server (${accounts}) did not answer`);
    }
    if (!answer.access_token)
      throw new BooksUnreachableError(
        `Zoho refused the refresh token (${answer.error ?? 'no access token'}): check the client id and secret and the data centre, or generate a new refresh token`,
      );
    cache.set(key, {
      token: answer.access_token,
      expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000,
    });
    return answer.access_token;
  };
}

/** One call of the API: Zoho's answer when its code is 0, else a `ZohoError`; 401 buys a new token once. */
function caller(settings: ZohoSettings, urls: { api: string; accounts: string }): Call {
  const token = tokenSource(settings, urls.accounts);
  return async function call(
    method: string,
    path: string,
    init: { query?: Json; json?: Json; form?: FormData } = {},
  ) {
    const url = new URL(`${urls.api}${path}`);
    url.searchParams.set('organization_id', settings.organizationId);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v != null) url.searchParams.set(k, String(v));
    const send = async (fresh: boolean) => {
      const headers: Record<string, string> = { authorization: `Zoho-oauthtoken ${await token(fresh)}` };
      if (init.json) headers['content-type'] = 'application/json';
      try {
        return await fetch(url, {
          method,
          headers,
          body: init.json ? JSON.stringify(init.json) : init.form,
          signal: AbortSignal.timeout(settings.timeoutMs ?? 30_000),
        });
      } catch {
        throw new BooksUnreachableError(`Zoho Books (${urls.api}) did not answer`);
      }
    };
    let res = await send(false);
    // An access token Zoho no longer takes (expired, revoked): buy a new one once and ask again.
    if (res.status === 401) res = await send(true);
    const body = (await res.json().catch(() => null)) as (Json & { code?: number; message?: string }) | null;
    if (!body) throw new BooksUnreachableError(`Zoho Books answered HTTP ${res.status} without a message`);
    if (body.code !== 0) throw new ZohoError(body.code ?? res.status, body.message ?? 'refused', res.status);
    return body;
  };
}

/** Every vendor of the organisation (200 a page, at most 10 pages). */
async function listVendors(call: Call): Promise<ZohoContact[]> {
  const out: ZohoContact[] = [];
  for (let page = 1; page <= 10; page++) {
    const r = await call('GET', '/contacts', { query: { contact_type: 'vendor', page, per_page: 200 } });
    out.push(...((r.contacts ?? []) as ZohoContact[]));
    if (!(r.page_context as { has_more_page?: boolean } | undefined)?.has_more_page) break;
  }
  return out;
}

/**
 * The vendor's contact, or why none can be chosen: by GSTIN (Zoho's search, then the vendors found by the
 * name's first word, then every vendor — Zoho's search may not look at GSTINs), else by a name that carries
 * no GSTIN. Two candidates refuse: a bill on the wrong vendor is worse than none.
 */
async function findVendor(call: Call, bill: ZohoBill): Promise<ZohoContact | string> {
  const search = async (text: string) =>
    ((await call('GET', '/contacts', { query: { contact_type: 'vendor', search_text: text } })).contacts ??
      []) as ZohoContact[];
  const gstin = bill.vendorGstin;
  const withGstin = (cs: ZohoContact[]) => cs.filter((c) => gstin && c.gst_no?.toUpperCase() === gstin);
  const byWord = await search(searchWord(bill.vendorName));
  let byGstin = gstin ? withGstin(await search(gstin)) : [];
  if (gstin && byGstin.length === 0) byGstin = withGstin(byWord);
  if (gstin && byGstin.length === 0) byGstin = withGstin(await listVendors(call));
  if (byGstin.length === 1) return byGstin[0]!;
  if (byGstin.length > 1) return `${byGstin.length} vendors in Zoho Books carry the GSTIN ${gstin}: keep one`;
  const key = nameKey(bill.vendorName);
  const byName = byWord.filter((c) => nameKey(c.contact_name) === key && !c.gst_no);
  if (byName.length === 1) return byName[0]!;
  const who = `${bill.vendorName}${gstin ? ` (GSTIN ${gstin})` : ''}`;
  return byName.length > 1
    ? `${byName.length} vendors in Zoho Books are named ${bill.vendorName}: give the right one its GSTIN`
    : `The vendor ${who} is not in Zoho Books: add it as a vendor${gstin ? ' with its GSTIN' : ''}, then post again`;
}

/** The vendor's bill with this number already in Zoho (an earlier push, or keyed by hand). */
async function findBill(call: Call, vendorId: string, billNumber: string): Promise<ZohoBillRow | null> {
  const rows = ((await call('GET', '/bills', { query: { vendor_id: vendorId, bill_number: billNumber } }))
    .bills ?? []) as ZohoBillRow[];
  const want = billNumber.trim().toUpperCase();
  return rows.find((b) => b.bill_number.trim().toUpperCase() === want) ?? null;
}

/** The bill as Zoho's create and update take it. */
function billBody(bill: ZohoBill, vendorId: string): Json {
  return {
    vendor_id: vendorId,
    bill_number: bill.billNumber,
    date: bill.date,
    is_inclusive_tax: false,
    ...(bill.vendorGstin ? { gst_treatment: 'business_gst', gst_no: bill.vendorGstin } : {}),
    ...(bill.vendorGstin ? {} : { gst_treatment: 'business_none' }),
    ...(bill.sourceOfSupply ? { source_of_supply: bill.sourceOfSupply } : {}),
    ...(bill.destinationOfSupply ? { destination_of_supply: bill.destinationOfSupply } : {}),
    line_items: bill.lines.map((l) => ({
      account_id: l.accountId,
      description: l.description,
      rate: l.amount,
      quantity: 1,
      ...(l.taxId ? { tax_id: l.taxId } : {}),
      ...(l.hsnOrSac ? { hsn_or_sac: l.hsnOrSac } : {}),
    })),
    adjustment: bill.adjustment,
    adjustment_description: 'Round off',
  };
}

/** Attaches the document's file to a bill that has none; a refusal is said, the bill stands. */
async function attach(
  call: Call,
  billId: string,
  row: ZohoBillRow,
  known: PushKnown | undefined,
): Promise<string | null> {
  if ((row.documents ?? []).length > 0 || !known?.attachment) return null;
  const file = await known.attachment().catch(() => null);
  if (!file) return null;
  const form = new FormData();
  form.set('attachment', new Blob([file.bytes], { type: file.contentType }), file.fileName);
  try {
    await call('POST', `/bills/${encodeURIComponent(billId)}/attachment`, { form });
    return null;
  } catch (error) {
    if (error instanceof ZohoError)
      return `the bill was saved but its PDF was not attached: ${error.message}`;
    throw error;
  }
}

/** Creates the bill, or updates the one Zoho already has for the vendor and number. */
async function save(call: Call, bill: ZohoBill, known: PushKnown | undefined): Promise<BooksAnswer> {
  const vendor = await findVendor(call, bill);
  if (typeof vendor === 'string') return refused(vendor);
  const body = billBody(bill, vendor.contact_id);
  let target = known?.voucherId ?? null;
  let adopted = false;
  if (!target) {
    const existing = await findBill(call, vendor.contact_id, bill.billNumber);
    target = existing?.bill_id ?? null;
    adopted = target !== null;
  }
  let saved: ZohoBillRow | null = null;
  if (target) {
    saved = await call('PUT', `/bills/${encodeURIComponent(target)}`, { json: body })
      .then((r) => r.bill as ZohoBillRow)
      .catch((error) => {
        // Deleted in Zoho since: make it again (after the search, so never twice).
        if (error instanceof ZohoError && error.code === 1002) return null;
        throw error;
      });
  }
  const created = saved === null;
  if (!saved) saved = (await call('POST', '/bills', { json: body })).bill as ZohoBillRow;
  const counters: Record<string, number> = created
    ? { CREATED: 1 }
    : adopted
      ? { ALTERED: 1, FOUND: 1 }
      : { ALTERED: 1 };
  const errors: string[] = [];
  if (saved.total !== undefined && Math.abs(saved.total - bill.total) > 1)
    errors.push(
      `Zoho Books worked out a total of ₹${saved.total.toFixed(2)} but the invoice says ₹${bill.total.toFixed(2)}: check the tax chosen for each GST rate in the Zoho Books mapping`,
    );
  const attachError = await attach(call, saved.bill_id, saved, known);
  if (attachError) errors.push(attachError);
  return { ok: errors.length === 0, counters, voucherId: saved.bill_id, errors };
}

/** The real Zoho Books client. */
export function createZohoBooksConnector(settings: ZohoSettings): BooksConnector<ZohoBill> & {
  listAccounts(): Promise<ZohoAccount[]>;
  listTaxes(): Promise<ZohoTax[]>;
} {
  const call = caller(settings, settings.urls ?? zohoUrls(settings.region));
  return {
    async listLedgers(): Promise<BooksLedger[]> {
      return (await listVendors(call)).map((c) => ({
        name: c.contact_name,
        parent: 'Vendors',
        gstin: c.gst_no?.toUpperCase() || null,
      }));
    },
    async listAccounts() {
      const r = await call('GET', '/chartofaccounts', { query: { per_page: 200 } });
      return ((r.chartofaccounts ?? []) as Json[]).map((a) => ({
        id: String(a.account_id),
        name: String(a.account_name),
        type: String(a.account_type ?? ''),
      }));
    },
    async listTaxes() {
      const r = await call('GET', '/settings/taxes');
      return ((r.taxes ?? []) as Json[]).map((t) => ({
        id: String(t.tax_id),
        name: String(t.tax_name),
        percentage: Number(t.tax_percentage ?? 0),
        kind: t.tax_type === 'tax_group' ? 'group' : String(t.tax_specific_type ?? t.tax_type ?? ''),
      }));
    },
    async createPartyLedgers(parties: readonly PartyLedgerInput[]) {
      const errors: string[] = [];
      let made = 0;
      for (const p of parties) {
        const contact = {
          contact_name: p.name,
          contact_type: 'vendor',
          gst_treatment: p.gstin ? 'business_gst' : 'business_none',
          ...(p.gstin ? { gst_no: p.gstin } : {}),
        };
        await call('POST', '/contacts', { json: contact }).then(
          () => made++,
          (error) => {
            if (!(error instanceof ZohoError)) throw error;
            errors.push(`${p.name}: ${error.message}`);
          },
        );
      }
      return {
        ok: errors.length === 0,
        counters: { CREATED: made, ERRORS: errors.length },
        voucherId: null,
        errors,
      };
    },
    async pushVoucher(bill: ZohoBill, action: PushAction, known?: PushKnown) {
      try {
        if (action !== 'cancel') return await save(call, bill, known);
        if (!known?.voucherId) return refused('There is no bill of this document in Zoho Books to void');
        await call('POST', `/bills/${encodeURIComponent(known.voucherId)}/status/void`);
        return { ok: true, counters: { CANCELLED: 1 }, voucherId: known.voucherId, errors: [] };
      } catch (error) {
        if (error instanceof ZohoError) return refused(error.message, error.code);
        throw error;
      }
    },
  };
}

function refused(message: string, code?: number): BooksAnswer {
  return {
    ok: false,
    counters: { ERRORS: 1, ...(code ? { CODE: code } : {}) },
    voucherId: null,
    errors: [message],
  };
}
