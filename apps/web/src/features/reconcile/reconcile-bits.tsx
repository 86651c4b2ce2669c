import { appPaths } from '@bahi/contracts';
import { formatIndianNumber } from '@bahi/india';
import { Link } from 'react-router';

/* Small pieces the Reconcile screen's parts share. */

/** A quantity, whole or to two places; a dash for none. */
export const qty = (v: number | null) =>
  v === null ? '—' : formatIndianNumber(v, Number.isInteger(v) ? 0 : 2);
/** An amount in Indian grouping; a dash for none. */
export const money = (v: number | null) => (v === null ? '—' : formatIndianNumber(v));

/** A document by its number (its file name when it has none), opening its review screen. */
export function DocLink({
  doc,
}: {
  doc: { id: string; flowId: string; fileName: string; documentNumber: string | null };
}) {
  return (
    <Link to={appPaths.document(doc.flowId, doc.id)} className="text-primary underline" title={doc.fileName}>
      {doc.documentNumber ?? doc.fileName}
    </Link>
  );
}
