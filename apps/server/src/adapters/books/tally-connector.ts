import { type PurchaseVoucher, tallyEnvelope, xmlText } from '@bahi/compliance';
import {
  type BooksAnswer,
  type BooksConnector,
  type BooksLedger,
  BooksUnreachableError,
  type PartyLedgerInput,
  type PushAction,
} from './books-connector.ts';
import { childText, findAll, parseXml, type XmlNode } from './xml-tree.ts';

// Tally Prime's XML server (F1 › Settings › Connectivity: "Client/Server configuration", port 9000 by
// default): one HTTP POST per request, an ENVELOPE in and an ENVELOPE out. Vouchers go one per request so
// Tally's counters and LINEERROR belong to that one document.

/** Where Tally listens and which company to work in. */
export interface TallySettings {
  host: string;
  port: number;
  company: string;
  /** Milliseconds before a request is given up (Tally busy in a dialog never answers). */
  timeoutMs?: number;
}

const COUNTERS = [
  'CREATED',
  'ALTERED',
  'DELETED',
  'CANCELLED',
  'COMBINED',
  'IGNORED',
  'ERRORS',
  'EXCEPTIONS',
] as const;

/** Reads an import answer (counters, LASTVCHID, LINEERRORs) in either the Tally ERP 9 or Prime layout. */
export function readImportAnswer(xml: string): BooksAnswer {
  const root = parseXml(xml);
  const counters: Record<string, number> = {};
  for (const name of COUNTERS) {
    const node = findAll(root, name)[0];
    if (node) counters[name] = Number(node.text.trim()) || 0;
  }
  const errors = findAll(root, 'LINEERROR')
    .map((n) => n.text.trim())
    .filter(Boolean);
  const vchId = findAll(root, 'LASTVCHID')[0]?.text.trim() || null;
  const ok = errors.length === 0 && (counters.ERRORS ?? 0) === 0 && (counters.EXCEPTIONS ?? 0) === 0;
  if (!ok && errors.length === 0) errors.push('Tally refused the voucher without saying why');
  return { ok, counters, voucherId: vchId && vchId !== '0' ? vchId : null, errors };
}

/** The ledger-list request: a TDL collection of ledgers with their group and GSTIN. */
export function ledgerListRequest(company: string): string {
  return [
    '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE>',
    '<ID>Bahi Ledgers</ID></HEADER><BODY><DESC><STATICVARIABLES>',
    `<SVCURRENTCOMPANY>${xmlText(company)}</SVCURRENTCOMPANY><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>`,
    '</STATICVARIABLES><TDL><TDLMESSAGE><COLLECTION NAME="Bahi Ledgers" ISMODIFY="No">',
    '<TYPE>Ledger</TYPE><FETCH>NAME, PARENT, PARTYGSTIN</FETCH></COLLECTION></TDLMESSAGE></TDL>',
    '</DESC></BODY></ENVELOPE>',
  ].join('');
}

function ledgerOf(n: XmlNode): BooksLedger | null {
  const name = n.attrs.NAME ?? childText(n, 'NAME');
  if (!name) return null;
  return { name, parent: childText(n, 'PARENT'), gstin: childText(n, 'PARTYGSTIN')?.toUpperCase() ?? null };
}

/** The masters import creating supplier ledgers under Sundry Creditors, bill-wise, with their GST details. */
export function partyLedgersEnvelope(company: string, parties: readonly PartyLedgerInput[]): string {
  const t = (name: string, v: string | null) => (v ? `<${name}>${xmlText(v)}</${name}>` : '');
  const messages = parties.map(
    (p) =>
      `<TALLYMESSAGE xmlns:UDF="TallyUDF"><LEDGER NAME="${xmlText(p.name)}" ACTION="Create">` +
      `${t('NAME', p.name)}${t('PARENT', 'Sundry Creditors')}${t('ISBILLWISEON', 'Yes')}` +
      `${t('GSTREGISTRATIONTYPE', p.registrationType)}${t('PARTYGSTIN', p.gstin)}${t('LEDSTATENAME', p.state)}` +
      `${t('COUNTRYNAME', 'India')}</LEDGER></TALLYMESSAGE>`,
  );
  return (
    '<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC>' +
    `<REPORTNAME>All Masters</REPORTNAME><STATICVARIABLES><SVCURRENTCOMPANY>${xmlText(company)}</SVCURRENTCOMPANY>` +
    `</STATICVARIABLES></REQUESTDESC><REQUESTDATA>${messages.join('')}</REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`
  );
}

const ACTIONS: Record<PushAction, 'Create' | 'Alter' | 'Cancel'> = {
  create: 'Create',
  alter: 'Alter',
  cancel: 'Cancel',
};

/** The real Tally client. */
export function createTallyConnector(settings: TallySettings): BooksConnector {
  const url = `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}/`;
  async function post(body: string): Promise<string> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body,
        signal: AbortSignal.timeout(settings.timeoutMs ?? 30_000),
      });
    } catch (error) {
      const why =
        error instanceof Error && error.name === 'TimeoutError' ? 'did not answer in time' : 'did not answer';
      throw new BooksUnreachableError(
        `Tally at ${settings.host}:${settings.port} ${why}. Check that Tally is open with the company loaded and that its XML server (F1 › Settings › Connectivity) listens on this port.`,
      );
    }
    const text = await res.text();
    if (!res.ok) throw new BooksUnreachableError(`Tally answered with HTTP ${res.status}`);
    return text;
  }
  return {
    async listLedgers() {
      const root = parseXml(await post(ledgerListRequest(settings.company)));
      const lineError = findAll(root, 'LINEERROR')[0]?.text.trim();
      if (lineError) throw new BooksUnreachableError(`Tally: ${lineError}`);
      return findAll(root, 'LEDGER')
        .map(ledgerOf)
        .filter((l): l is BooksLedger => l !== null);
    },
    async createPartyLedgers(parties) {
      return readImportAnswer(await post(partyLedgersEnvelope(settings.company, parties)));
    },
    async pushVoucher(voucher: PurchaseVoucher, action) {
      const xml = tallyEnvelope([voucher], { company: settings.company, action: ACTIONS[action] });
      return readImportAnswer(await post(xml));
    },
  };
}
