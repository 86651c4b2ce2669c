import { appPaths } from '@bahi/contracts';
import { createContext, useContext } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';
import { type CellKind, formatCell, getRowTone, inferCellKind, isNumericKind } from './cell-format.ts';
import { formatStatusLabel } from './flow-format.ts';
import type { SheetColumn } from './flows-api.ts';
import { describeCheck } from './source-link.ts';

/* What a sheet's rows show: each cell formatted by its kind, and on a phone a card per row. */

/** Keys whose cell links to the stored document, and where the row keeps that link. */
const FILE_KEYS = new Set(['fileName', 'file', 'file_name']);
const LINK_KEYS = ['fileUrl', 'documentUrl', 'link', 'url', 'file_url'];

/** Column headers that are bookkeeping, not something a reviewer reads. */
export const HIDDEN_KEYS = new Set(['id', 'documentId', 'flowId', 'organizationId', ...LINK_KEYS]);

/** The document link of a row, if it carries one (only same-origin or http(s) links). */
function getRowLink(row: Record<string, unknown>): string | null {
  for (const key of LINK_KEYS) {
    const value = row[key];
    if (typeof value === 'string' && (value.startsWith('/') || /^https?:\/\//i.test(value))) return value;
  }
  return null;
}

/** Columns a phone card shows before "All fields": what identifies a document and what it is worth. */
const CARD_KEYS = [
  'documentNumber',
  'documentDate',
  'vendorName',
  'buyerName',
  'total',
  'lineNo',
  'description',
  'amount',
];

/**
 * Phones get a card per row instead of a table thousands of pixels wide: the file, its review state and
 * failed checks in words, the fields that identify it, and every other field one tap away.
 */
export function SheetRowCards({
  rows,
  columns,
}: {
  rows: Array<Record<string, unknown>>;
  columns: SheetColumn[];
}) {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const first = columns[0];
  return (
    <ul className="flex flex-col gap-3 md:hidden" data-testid="sheet-cards">
      {rows.map((row, index) => {
        const tone = getRowTone(row);
        const lead = CARD_KEYS.flatMap((key) => {
          const column = byKey.get(key);
          return column && formatCell(row[key], inferCellKind(key, column.kind)) ? [column] : [];
        });
        const rest = columns.filter(
          (c) =>
            c !== first &&
            !lead.includes(c) &&
            formatCell(row[c.key], inferCellKind(c.key, c.kind)) !== '' &&
            !['reviewFlag', 'checksFailed'].includes(c.key),
        );
        return (
          <li
            key={String(row.id ?? index)}
            data-testid="sheet-card"
            className={cn(
              'rounded-lg border p-4',
              tone === 'review' ? 'bg-amber-50' : tone === 'failed' ? 'bg-red-50' : 'bg-card',
            )}
          >
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 break-all font-medium text-sm">
                {first && <SheetCell row={row} column={first} kind={inferCellKind(first.key, first.kind)} />}
              </p>
              {byKey.get('reviewFlag') && (
                <SheetCell row={row} column={byKey.get('reviewFlag')!} kind="status" />
              )}
            </div>
            {typeof row.checksFailed === 'string' && row.checksFailed.trim() !== '' && (
              <ul className="mt-2 list-disc pl-4 text-warning-foreground text-xs">
                {row.checksFailed.split(/[,;]\s*/).map((check) => (
                  <li key={check}>{describeCheck(check)}</li>
                ))}
              </ul>
            )}
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {lead.map((column) => (
                <CardField key={column.key} row={row} column={column} />
              ))}
            </dl>
            {rest.length > 0 && (
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer text-primary text-xs">All fields ({rest.length})</summary>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                  {rest.map((column) => (
                    <CardField key={column.key} row={row} column={column} />
                  ))}
                </dl>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function CardField({ row, column }: { row: Record<string, unknown>; column: SheetColumn }) {
  const kind = inferCellKind(column.key, column.kind);
  return (
    <>
      <dt className="text-muted-foreground">{column.label}</dt>
      <dd className={cn('min-w-0 break-words', isNumericKind(kind) && 'tabular-nums')}>
        <SheetCell row={row} column={column} kind={kind} />
      </dd>
    </>
  );
}

/** "1 document", "12 line items". */
export function formatRowCount(count: number, tab: 'documents' | 'lines'): string {
  const noun = tab === 'lines' ? 'line item' : 'document';
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** The flow whose sheet is shown, for links to its documents' review screens. */
export const SheetFlowContext = createContext<string | null>(null);

/** One sheet cell, formatted by kind; the file name links to the stored document. */
export function SheetCell({
  row,
  column,
  kind,
}: {
  row: Record<string, unknown>;
  column: SheetColumn;
  kind: CellKind;
}) {
  const value = row[column.key];
  const text = formatCell(value, kind);
  const flowId = useContext(SheetFlowContext);
  // A document's name opens its review screen, where the page sits beside its values.
  if (FILE_KEYS.has(column.key) && flowId && typeof row.documentId === 'string' && text)
    return (
      <Link to={appPaths.document(flowId, row.documentId)} className="text-primary hover:underline">
        {text}
      </Link>
    );
  const link =
    FILE_KEYS.has(column.key) || kind === 'link'
      ? (getRowLink(row) ?? (kind === 'link' && typeof value === 'string' ? value : null))
      : null;
  if (link && text) {
    return (
      <a href={link} target="_blank" rel="noreferrer" className="text-primary hover:underline">
        {kind === 'link' && !FILE_KEYS.has(column.key) ? 'Open' : text}
      </a>
    );
  }
  if (column.key === 'checksFailed' && text) {
    // The same sentences as the inbox and the workbook, not the check codes.
    return (
      <>
        {text
          .split(/[,;]\s*/)
          .filter(Boolean)
          .map(describeCheck)
          .join('; ')}
      </>
    );
  }
  if (kind === 'status' && text) {
    const tone = text.toLowerCase();
    return (
      <Badge
        variant={
          tone === 'done' || tone === 'ok' || tone === 'approved'
            ? 'success'
            : tone === 'failed'
              ? 'destructive'
              : 'secondary'
        }
        className={
          tone === 'review' || tone === 'needs_review' ? 'bg-warning/15 text-warning-foreground' : undefined
        }
      >
        {tone === 'ok' ? 'OK' : formatStatusLabel(text)}
      </Badge>
    );
  }
  return <>{text}</>;
}
