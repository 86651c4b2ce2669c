import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback stand-in of Zoho Books (the API under /books/v3 and the accounts server's token endpoint), for
// tests: one organisation with vendors, a chart of accounts and GST taxes. It answers the way Zoho does:
// `{code: 0, message, …}` on success and `{code, message}` with Zoho's codes on refusal (57 for an access
// token it does not take, with HTTP 401; 1002 for a bill that does not exist; a bill number used twice for
// a vendor), searches contacts by name only, works out a bill's tax and total itself, and keeps
// attachments. `expireTokens` makes every access token handed out so far stale, as an hour's wait would.

/** A vendor of the organisation. */
export interface StandInContact {
  contact_id: string;
  contact_name: string;
  gst_no?: string;
}
/** A bill the stand-in holds. */
export interface StandInBill {
  bill_id: string;
  vendor_id: string;
  bill_number: string;
  date: string;
  status: 'open' | 'void';
  line_items: Array<{ account_id: string; tax_id?: string; rate: number; quantity: number }>;
  adjustment: number;
  total: number;
  documents: Array<{ file_name: string; size: number }>;
  /** How many times it was created (must stay 1) and updated. */
  updated: number;
}

/** The running stand-in. */
export interface ZohoStandIn {
  urls: { api: string; accounts: string };
  organizationId: string;
  client: { id: string; secret: string; refreshToken: string };
  contacts: StandInContact[];
  bills: Map<string, StandInBill>;
  /** Every API request (method and path), and how many access tokens were handed out. */
  requests: string[];
  tokensIssued: number;
  /** Bill writes received (POST and PUT /bills). */
  billWrites: number;
  expireTokens(): void;
  close(): Promise<void>;
}

const ACCOUNTS = [
  { account_id: 'acc-purchases', account_name: 'Purchases', account_type: 'cost_of_goods_sold' },
  { account_id: 'acc-office', account_name: 'Office Supplies', account_type: 'expense' },
  { account_id: 'acc-cash', account_name: 'Petty Cash', account_type: 'cash' },
];
const TAXES = [
  {
    tax_id: 'tax-igst18',
    tax_name: 'IGST18',
    tax_percentage: 18,
    tax_type: 'tax',
    tax_specific_type: 'igst',
  },
  { tax_id: 'tax-gst18', tax_name: 'GST18', tax_percentage: 18, tax_type: 'tax_group' },
  { tax_id: 'tax-igst5', tax_name: 'IGST5', tax_percentage: 5, tax_type: 'tax', tax_specific_type: 'igst' },
  { tax_id: 'tax-gst5', tax_name: 'GST5', tax_percentage: 5, tax_type: 'tax_group' },
  {
    tax_id: 'tax-igst12',
    tax_name: 'IGST12',
    tax_percentage: 12,
    tax_type: 'tax',
    tax_specific_type: 'igst',
  },
  { tax_id: 'tax-gst12', tax_name: 'GST12', tax_percentage: 12, tax_type: 'tax_group' },
  {
    tax_id: 'tax-igst28',
    tax_name: 'IGST28',
    tax_percentage: 28,
    tax_type: 'tax',
    tax_specific_type: 'igst',
  },
  { tax_id: 'tax-gst28', tax_name: 'GST28', tax_percentage: 28, tax_type: 'tax_group' },
];

const round2 = (n: number) => Math.round(n * 100) / 100;

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** Starts the stand-in on a free loopback port. */
export async function startZohoStandIn(options: { contacts?: StandInContact[] } = {}): Promise<ZohoStandIn> {
  const valid = new Set<string>();
  let issued = 0;
  let nextId = 9000;
  const send = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, code: number, message: string) =>
    send(res, status, { code, message });

  function token(res: ServerResponse, form: URLSearchParams) {
    const c = stand.client;
    if (
      form.get('grant_type') !== 'refresh_token' ||
      form.get('refresh_token') !== c.refreshToken ||
      form.get('client_id') !== c.id ||
      form.get('client_secret') !== c.secret
    )
      return send(res, 200, { error: 'invalid_code' });
    const access = `1000.standin${++issued}`;
    valid.add(access);
    stand.tokensIssued = issued;
    send(res, 200, {
      access_token: access,
      api_domain: 'https://www.zohoapis.in',
      token_type: 'Bearer',
      expires_in: 3600,
    });
  }

  function checkBill(body: Record<string, unknown>): string | StandInBill['line_items'] {
    if (!stand.contacts.some((c) => c.contact_id === body.vendor_id)) return 'Vendor does not exist.';
    if (!body.bill_number) return 'Bill# is required.';
    const lines = (body.line_items ?? []) as StandInBill['line_items'];
    if (lines.length === 0) return 'Line items cannot be empty.';
    for (const l of lines) {
      if (!ACCOUNTS.some((a) => a.account_id === l.account_id)) return 'Invalid value passed for account_id';
      if (l.tax_id && !TAXES.some((t) => t.tax_id === l.tax_id)) return 'Invalid value passed for tax_id';
    }
    return lines;
  }

  function totalOf(lines: StandInBill['line_items'], adjustment: number): number {
    let total = adjustment;
    for (const l of lines) {
      const base = round2(l.rate * (l.quantity ?? 1));
      const pct = TAXES.find((t) => t.tax_id === l.tax_id)?.tax_percentage ?? 0;
      total += base + round2((base * pct) / 100);
    }
    return round2(total);
  }

  function writeBill(res: ServerResponse, body: Record<string, unknown>, id: string | null) {
    stand.billWrites++;
    const lines = checkBill(body);
    if (typeof lines === 'string') return refuse(res, 400, lines.includes('Vendor') ? 1002 : 2, lines);
    const number = String(body.bill_number);
    const clash = [...stand.bills.values()].find(
      (b) => b.vendor_id === body.vendor_id && b.bill_number === number && b.bill_id !== id,
    );
    if (clash) return refuse(res, 400, 13011, 'This bill number has already been used for this vendor.');
    const adjustment = Number(body.adjustment ?? 0);
    const fields = {
      vendor_id: String(body.vendor_id),
      bill_number: number,
      date: String(body.date ?? ''),
      line_items: lines,
      adjustment,
      total: totalOf(lines, adjustment),
    };
    let bill = id ? stand.bills.get(id) : undefined;
    if (id && !bill) return refuse(res, 404, 1002, 'Bill does not exist.');
    if (bill) Object.assign(bill, fields, { updated: bill.updated + 1 });
    else {
      bill = { bill_id: String(nextId++), status: 'open', documents: [], updated: 0, ...fields };
      stand.bills.set(bill.bill_id, bill);
    }
    send(res, id ? 200 : 201, {
      code: 0,
      message: id ? 'Bill information has been updated.' : 'The bill has been created.',
      bill,
    });
  }

  function api(req: IncomingMessage, res: ServerResponse, url: URL, raw: Buffer) {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Zoho-oauthtoken ') || !valid.has(auth.slice(16)))
      return refuse(res, 401, 57, 'You are not authorized to perform this operation');
    if (url.searchParams.get('organization_id') !== stand.organizationId)
      return refuse(res, 400, 6041, 'This user is not a part of the organization.');
    const path = url.pathname.replace(/^\/books\/v3/, '');
    stand.requests.push(`${req.method} ${path}`);
    const q = (k: string) => url.searchParams.get(k);
    const json = () => JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    if (req.method === 'GET' && path === '/contacts') {
      const s = (q('search_text') ?? '').toLowerCase();
      // Zoho's search looks at names, not GSTINs: the client must find a GSTIN some other way.
      const contacts = stand.contacts.filter((c) => !s || c.contact_name.toLowerCase().includes(s));
      return send(res, 200, {
        code: 0,
        message: 'success',
        contacts,
        page_context: { has_more_page: false },
      });
    }
    if (req.method === 'POST' && path === '/contacts') {
      const contact = { contact_id: `c-${nextId++}`, ...(json() as Omit<StandInContact, 'contact_id'>) };
      stand.contacts.push(contact);
      return send(res, 201, { code: 0, message: 'The contact has been added.', contact });
    }
    if (req.method === 'GET' && path === '/chartofaccounts')
      return send(res, 200, { code: 0, message: 'success', chartofaccounts: ACCOUNTS });
    if (req.method === 'GET' && path === '/settings/taxes')
      return send(res, 200, { code: 0, message: 'success', taxes: TAXES });
    if (req.method === 'GET' && path === '/bills') {
      const bills = [...stand.bills.values()].filter(
        (b) =>
          (!q('vendor_id') || b.vendor_id === q('vendor_id')) &&
          (!q('bill_number') || b.bill_number === q('bill_number')),
      );
      return send(res, 200, { code: 0, message: 'success', bills, page_context: { has_more_page: false } });
    }
    if (req.method === 'POST' && path === '/bills') return writeBill(res, json(), null);
    const one = /^\/bills\/([^/]+)(\/.*)?$/.exec(path);
    const bill = one ? stand.bills.get(decodeURIComponent(one[1]!)) : undefined;
    if (one && req.method === 'PUT' && !one[2]) return writeBill(res, json(), decodeURIComponent(one[1]!));
    if (one && !bill) return refuse(res, 404, 1002, 'Bill does not exist.');
    if (bill && req.method === 'POST' && one?.[2] === '/attachment') {
      const text = raw.toString('latin1');
      const file = /name="attachment"; filename="([^"]+)"/.exec(text)?.[1];
      if (!file) return refuse(res, 400, 2, 'Attachment is required.');
      bill.documents.push({ file_name: file, size: raw.length });
      return send(res, 200, { code: 0, message: 'Your file has been successfully attached to the bill.' });
    }
    if (bill && req.method === 'POST' && one?.[2] === '/status/void') {
      bill.status = 'void';
      return send(res, 200, { code: 0, message: 'The bill has been marked as void.' });
    }
    refuse(res, 404, 5, 'Invalid URL Passed');
  }

  const server: Server = createServer(async (req, res) => {
    const raw = await read(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/oauth/v2/token')
      return token(res, new URLSearchParams(raw.toString('utf8') || url.search));
    if (url.pathname.startsWith('/books/v3/')) return api(req, res, url, raw);
    refuse(res, 404, 5, 'Invalid URL Passed');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stand: ZohoStandIn = {
    urls: { api: `${base}/books/v3`, accounts: base },
    organizationId: '60012345678',
    client: { id: '1000.STANDINCLIENT', secret: 'stand-in-secret', refreshToken: '1000.refresh.standin' },
    contacts: (options.contacts ?? []).map((c) => ({ ...c })),
    bills: new Map(),
    requests: [],
    tokensIssued: 0,
    billWrites: 0,
    expireTokens: () => valid.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
