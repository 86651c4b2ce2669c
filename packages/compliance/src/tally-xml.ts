// Tally's XML import envelope for purchase vouchers (Import Data → Vouchers), UTF-8.
import { stateByCode } from '@bahi/india';
import { formatPaise } from './money.ts';
import type { PurchaseVoucher, VoucherEntry } from './tally-voucher.ts';

/** Text and attribute values escaped for XML; characters XML 1.0 cannot hold are dropped. */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const tag = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

function entryXml(e: VoucherEntry, reference: string): string {
  const amount = formatPaise(e.amount);
  const parts = [
    tag('LEDGERNAME', e.ledger),
    tag('ISDEEMEDPOSITIVE', e.amount < 0 ? 'Yes' : 'No'),
    tag('ISPARTYLEDGER', e.isParty ? 'Yes' : 'No'),
    tag('AMOUNT', amount),
  ];
  // Bill-wise details, so the supplier's outstanding shows against this invoice.
  if (e.isParty)
    parts.push(
      `<BILLALLOCATIONS.LIST>${tag('NAME', reference)}${tag('BILLTYPE', 'New Ref')}${tag('AMOUNT', amount)}</BILLALLOCATIONS.LIST>`,
    );
  return `      <ALLLEDGERENTRIES.LIST>${parts.join('')}</ALLLEDGERENTRIES.LIST>`;
}

/** What Tally is asked to do with a voucher: create it (or replace the one with its REMOTEID), alter or cancel it. */
export type VoucherAction = 'Create' | 'Alter' | 'Cancel';

/** One `VOUCHER` element (VCHTYPE Purchase; ACTION Create unless told). */
export function voucherXml(v: PurchaseVoucher, action: VoucherAction = 'Create'): string {
  const state = v.placeOfSupply ? stateByCode(v.placeOfSupply)?.name : undefined;
  const head = [
    tag('DATE', v.date),
    tag('REFERENCEDATE', v.date),
    tag('VOUCHERTYPENAME', 'Purchase'),
    tag('REFERENCE', v.reference),
    tag('PARTYLEDGERNAME', v.party),
    tag('PARTYNAME', v.party),
    v.partyGstin ? tag('PARTYGSTIN', v.partyGstin) : '',
    state ? tag('PLACEOFSUPPLY', state) : '',
    tag('PERSISTEDVIEW', 'Accounting Voucher View'),
  ].filter(Boolean);
  return [
    '    <TALLYMESSAGE xmlns:UDF="TallyUDF">',
    `     <VOUCHER REMOTEID="${xmlText(v.remoteId)}" VCHTYPE="Purchase" ACTION="${action}" OBJVIEW="Accounting Voucher View">`,
    ...head.map((h) => `      ${h}`),
    ...v.entries.map((e) => entryXml(e, v.reference)),
    '     </VOUCHER>',
    '    </TALLYMESSAGE>',
  ].join('\n');
}

/** Where an import goes and what it does: the company (`SVCURRENTCOMPANY`, else the one open) and the action. */
export interface EnvelopeOptions {
  company?: string;
  action?: VoucherAction;
}

/** The whole import file: `ENVELOPE/HEADER/TALLYREQUEST` Import Data, `REPORTNAME` Vouchers, one message per voucher. */
export function tallyEnvelope(vouchers: readonly PurchaseVoucher[], options: EnvelopeOptions = {}): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ENVELOPE>',
    ' <HEADER>',
    '  <TALLYREQUEST>Import Data</TALLYREQUEST>',
    ' </HEADER>',
    ' <BODY>',
    '  <IMPORTDATA>',
    '   <REQUESTDESC>',
    '    <REPORTNAME>Vouchers</REPORTNAME>',
    ...(options.company
      ? [
          `    <STATICVARIABLES><SVCURRENTCOMPANY>${xmlText(options.company)}</SVCURRENTCOMPANY></STATICVARIABLES>`,
        ]
      : []),
    '   </REQUESTDESC>',
    '   <REQUESTDATA>',
    ...vouchers.map((v) => voucherXml(v, options.action)),
    '   </REQUESTDATA>',
    '  </IMPORTDATA>',
    ' </BODY>',
    '</ENVELOPE>',
    '',
  ].join('\n');
}
