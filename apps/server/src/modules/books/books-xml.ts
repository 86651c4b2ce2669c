import { type PurchaseVoucher, tallyEnvelope } from '@bahi/compliance';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Membership } from '../auth/identity.ts';
import { listRegisterInvoices } from '../gst/gst.repo.ts';
import { computeRegisterTds } from '../gst/tds.service.ts';
import { findConnection } from './books.repo.ts';
import { readMapping, voucherOfDocument } from './books-voucher.ts';

// The offline path: Tally's import file (Gateway › Import › Transactions) for invoices chosen in the review
// queue or every approved invoice of a month, built exactly as the push builds them (same REMOTEIDs, so a
// file imported after a push, or twice, keeps one voucher per invoice).

/** The file and the invoices left out with their reason (written as XML comments at the top). */
export interface TallyXmlFile {
  fileName: string;
  xml: string;
  refused: Array<{ fileName: string; reason: string }>;
}

/** Builds the import file of the chosen approved invoices (`ids`) or those dated in `period` (YYYY-MM). */
export async function exportTallyXml(
  db: Db,
  membership: Membership,
  { ids, period }: { ids?: string[] | undefined; period?: string | undefined },
): Promise<TallyXmlFile> {
  if (!ids?.length && !period) throw new AppError('validation', 'Choose invoices or a month to download');
  const orgId = membership.organizationId;
  const [connection, register, tds] = await Promise.all([
    findConnection(db, orgId),
    listRegisterInvoices(db, orgId),
    computeRegisterTds(db, orgId),
  ]);
  const mapping = readMapping(connection?.mapping);
  const chosen = new Set(ids ?? []);
  const vouchers: PurchaseVoucher[] = [];
  const refused: TallyXmlFile['refused'] = [];
  for (const doc of register) {
    if (!doc.approved) continue;
    if (ids?.length && !chosen.has(doc.id)) continue;
    const built = voucherOfDocument(
      doc,
      mapping,
      tds.find((t) => t.invoice.id === doc.id),
    );
    if (period && !built.invoice.documentDate?.startsWith(period)) continue;
    if (built.ok) vouchers.push(built.voucher);
    else refused.push({ fileName: doc.fileName, reason: built.reason });
  }
  let xml = tallyEnvelope(vouchers, connection ? { company: connection.company } : {});
  if (refused.length > 0) {
    // Comments cannot hold "--": the reasons are plain words, but a file name might.
    const notes = refused.map(
      (r) => `<!-- Not included: ${`${r.fileName}: ${r.reason}`.replace(/-(?=-)/g, '- ')} -->`,
    );
    xml = xml.replace('<ENVELOPE>', `${notes.join('\n')}\n<ENVELOPE>`);
  }
  const name = period ? `tally-purchases-${period}.xml` : `tally-purchases-${vouchers.length}.xml`;
  return { fileName: name, xml, refused };
}
