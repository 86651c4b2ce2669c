import { appPaths, type GstRow } from '@bahi/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatAgo } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { usePermission } from '../../lib/permissions.ts';
import type { PendingDecision } from './decision-dialog.tsx';
import { cell, date, FIELDS, IMS_WORDS, money, STATUS_WORDS, TONE } from './gst-format.ts';

type Field = (typeof FIELDS)[number];

/** The side-by-side table's columns: the field (marked when the two differ), the books, the 2B. */
function compareColumns(row: GstRow): DataColumn<Field>[] {
  const differs = new Set(row.differences.map((d) => d.field));
  return [
    {
      key: 'field',
      header: 'Field',
      rowHeader: true,
      cell: (f) => (
        <>
          {f.label}
          {differs.has(f.diff) && (
            <span className="ml-1.5 font-semibold text-warning-foreground text-xs">differs</span>
          )}
        </>
      ),
    },
    { key: 'books', header: 'In your books', cellClassName: 'tabular-nums', cell: (f) => cell(row.books, f) },
    { key: 'gstr2b', header: 'In GSTR-2B', cellClassName: 'tabular-nums', cell: (f) => cell(row.gstr2b, f) },
  ];
}

/** The invoice and the 2B document side by side, differing fields marked; the decisions and what can be done. */
function RowDetail({
  row,
  onDecide,
}: {
  row: GstRow;
  onDecide: (action: PendingDecision['action']) => void;
}) {
  const differs = new Set(row.differences.map((d) => d.field));
  const decide = usePermission('documents.approve');
  const canAccept =
    (row.status === 'mismatch' || row.status === 'probable_match') && row.decided !== 'accepted';
  return (
    <div className="flex flex-col gap-3 border-t bg-muted/20 p-3" data-testid="gst-detail">
      <DataTable
        label="Invoice and GSTR-2B side by side"
        columns={compareColumns(row)}
        rows={FIELDS}
        rowKey={(f) => f.key}
        rowProps={(f) => ({ 'data-differs': differs.has(f.diff) || undefined })}
        rowClassName={(f) => (differs.has(f.diff) ? '[&>*]:bg-warning/10' : undefined)}
        tableClassName="min-w-[30rem]"
        className="rounded-md"
      />
      {row.gstr2b && !row.gstr2b.itcAvailable && (
        <p className="text-destructive text-sm">
          GSTR-2B says no input tax credit is available on this document
          {row.gstr2b.itcReason ? `: ${row.gstr2b.itcReason}` : ''}.
        </p>
      )}
      {row.invoice && (
        <p className="text-sm">
          <Link to={appPaths.document(row.invoice.flowId, row.invoice.id)} className="text-primary underline">
            Open the invoice {row.books?.documentNumber ?? row.invoice.fileName}
          </Link>
          {!row.invoice.approved && <span className="text-muted-foreground"> · not approved yet</span>}
        </p>
      )}
      {row.decisions.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm" aria-label="Decisions">
          {row.decisions.map((d) => (
            <li key={d.id}>
              <span className="font-medium">{d.userName}</span>{' '}
              {{ link: 'linked', unlink: 'unlinked', accept: 'accepted the difference' }[d.action]}{' '}
              {formatAgo(d.at)}: “{d.reason}”
            </li>
          ))}
        </ul>
      )}
      {row.invoice && !decide.allowed && decide.reason && (
        <p className="text-muted-foreground text-sm">{decide.reason}</p>
      )}
      {row.invoice && decide.allowed && (
        <div className="flex flex-wrap gap-2">
          {canAccept && (
            <Button size="sm" onClick={() => onDecide('accept')}>
              Accept difference
            </Button>
          )}
          {row.status === 'probable_match' && row.decided !== 'linked' && (
            <Button size="sm" variant="outline" onClick={() => onDecide('link')}>
              Confirm link
            </Button>
          )}
          {row.gstr2b && (
            <Button size="sm" variant="outline" onClick={() => onDecide('unlink')}>
              Unlink
            </Button>
          )}
          {!row.gstr2b && (
            <Button size="sm" variant="outline" onClick={() => onDecide('link')}>
              Link to a 2B document
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** One row of a GSTR-2B tab: the document, its date and ITC, its status; opens to the side-by-side detail. */
export function GstRowItem({
  row,
  onDecide,
}: {
  row: GstRow;
  onDecide: (p: PendingDecision['action'], row: GstRow) => void;
}) {
  const [open, setOpen] = useState(false);
  const side = row.books ?? row.gstr2b;
  return (
    <li className="border-b last:border-0" data-testid="gst-row" data-tab={row.tab}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="grid w-full grid-cols-[minmax(0,1.6fr)_6.5rem_8rem_auto] items-center gap-3 px-3 py-2.5 text-left text-sm hover:bg-muted/40 max-md:grid-cols-[minmax(0,1fr)_auto]"
      >
        <span className="min-w-0">
          <span className="block truncate font-medium">
            {side?.documentNumber ?? row.invoice?.fileName ?? '—'}
          </span>
          <span className="block truncate text-muted-foreground text-xs">
            {row.vendorName ?? side?.gstin ?? 'Unknown supplier'}
            {row.differences.length > 0 &&
              ` · differs: ${row.differences.map((d) => d.field.replace(/([A-Z])/g, ' $1').toLowerCase()).join(', ')}`}
          </span>
        </span>
        <span className="tabular-nums max-md:hidden">{date(side?.documentDate)}</span>
        <span className="text-right tabular-nums max-md:hidden">
          <span className="text-muted-foreground text-xs">ITC </span>
          {money(row.itc)}
        </span>
        <span className="flex flex-col items-end gap-0.5">
          <Badge className={cn('border-transparent', TONE[row.tab])}>
            {row.decided === 'accepted'
              ? 'Accepted'
              : row.decided === 'linked'
                ? `Linked · ${STATUS_WORDS[row.status]}`
                : STATUS_WORDS[row.status]}
          </Badge>
          {IMS_WORDS[row.ims] && <span className="text-muted-foreground text-xs">{IMS_WORDS[row.ims]}</span>}
        </span>
      </button>
      {open && <RowDetail row={row} onDecide={(a) => onDecide(a, row)} />}
    </li>
  );
}
