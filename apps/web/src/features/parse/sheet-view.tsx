import { appPaths } from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowDownIcon,
  ArrowLeftIcon,
  ArrowUpDownIcon,
  ArrowUpIcon,
  DownloadIcon,
  FileSpreadsheetIcon,
} from 'lucide-react';
import { createContext, useContext, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { cn } from '@/lib/utils.ts';
import { flowKeys } from '@/shared/flows/queries.ts';
import {
  type CellKind,
  formatCell,
  getRowTone,
  inferCellKind,
  isNumericKind,
  orderColumns,
} from './cell-format.ts';
import { formatStatusLabel } from './flow-format.ts';
import { type Flow, getSheetDownloadUrl, getSheetPage, type SheetColumn } from './flows-api.ts';
import { getSheetViewPath } from './sheet-path.ts';
import { nextSort, type SortState, sortRows } from './sort-rows.ts';
import { describeCheck } from './source-link.ts';

type Tab = 'documents' | 'lines';

/** Keys whose cell links to the stored document, and where the row keeps that link. */
const FILE_KEYS = new Set(['fileName', 'file', 'file_name']);
const LINK_KEYS = ['fileUrl', 'documentUrl', 'link', 'url', 'file_url'];

/** Column headers that are bookkeeping, not something a reviewer reads. */
const HIDDEN_KEYS = new Set(['id', 'documentId', 'flowId', 'organizationId', ...LINK_KEYS]);

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
function SheetRowCards({ rows, columns }: { rows: Array<Record<string, unknown>>; columns: SheetColumn[] }) {
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
function formatRowCount(count: number, tab: 'documents' | 'lines'): string {
  const noun = tab === 'lines' ? 'line item' : 'document';
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** One sheet cell, formatted by kind; the file name links to the stored document. */
/** The flow whose sheet is shown, for links to its documents' review screens. */
const SheetFlowContext = createContext<string | null>(null);

function SheetCell({
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

/**
 * The in-app view of a flow's workbook: "Documents" and "Line Items" tabs, a sortable table with a
 * sticky header and horizontal scroll, amounts in Indian grouping, review rows highlighted, and
 * the .xlsx / .csv downloads.
 */
export function SheetView({ flowId, tab, flow }: { flowId: string; tab: Tab; flow?: Flow | undefined }) {
  const navigate = useNavigate();
  const [sort, setSort] = useState<SortState>({ key: null, dir: 'asc' });
  const [page, setPage] = useState(1);
  const sheet = useQuery({
    queryKey: [...flowKeys.sheet(flowId), tab, sort.key, sort.dir, page],
    queryFn: ({ signal }) => getSheetPage(flowId, { tab, sort: sort.key, dir: sort.dir, page }, signal),
    placeholderData: (previous) => (previous?.tab === tab ? previous : undefined),
  });

  function switchTab(next: string) {
    setSort({ key: null, dir: 'asc' });
    setPage(1);
    navigate(getSheetViewPath(flowId, next === 'lines' ? 'lines' : 'documents'), { replace: true });
  }

  const columns = orderColumns(sheet.data?.columns ?? [], HIDDEN_KEYS);
  // The server sorts when it can; sorting the page again keeps the order right if it did not.
  const rows = sheet.data ? sortRows(sheet.data.rows, sort) : [];
  const pageCount = sheet.data
    ? Math.max(1, Math.ceil(sheet.data.total / Math.max(1, sheet.data.pageSize)))
    : 1;

  const tabBody = sheet.isPending ? (
    <div className="flex flex-col gap-2" aria-busy="true">
      <Skeleton className="h-10 w-full" />
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-8 w-full" />
      ))}
    </div>
  ) : sheet.isError ? (
    <div
      role="alert"
      className="rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-destructive text-sm"
    >
      Couldn't load the sheet: {sheet.error.message}
    </div>
  ) : rows.length === 0 ? (
    <EmptyState
      icon={FileSpreadsheetIcon}
      title="No rows yet"
      description="Run the flow: each document it reads adds a row here and to the workbook."
    />
  ) : (
    <>
      <SheetRowCards rows={rows} columns={columns} />
      <div
        className="hidden max-h-[70vh] overflow-auto rounded-lg border bg-card md:block"
        data-testid="sheet-table"
        // Focusable so keyboard users can scroll the wide table.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: scroll container must be reachable by keyboard
        tabIndex={0}
      >
        <table className="w-max min-w-full border-separate border-spacing-0 text-sm">
          <thead>
            <tr>
              {columns.map((column, columnIndex) => {
                const kind = inferCellKind(column.key, column.kind);
                const active = sort.key === column.key;
                const SortIcon = active
                  ? sort.dir === 'asc'
                    ? ArrowUpIcon
                    : ArrowDownIcon
                  : ArrowUpDownIcon;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                    className={cn(
                      'sticky top-0 z-10 whitespace-nowrap border-b bg-muted px-3 py-2 font-medium text-muted-foreground',
                      isNumericKind(kind) ? 'text-right' : 'text-left',
                      // The first column (file name) stays in view while scrolling sideways.
                      columnIndex === 0 && 'left-0 z-20 border-r',
                    )}
                  >
                    <button
                      type="button"
                      onClick={() => {
                        setSort((current) => nextSort(current, column.key));
                        setPage(1);
                      }}
                      className={cn(
                        'inline-flex items-center gap-1 hover:text-foreground',
                        active && 'text-foreground',
                      )}
                    >
                      {column.label}
                      <SortIcon className="size-3.5 opacity-60" aria-hidden="true" />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const tone = getRowTone(row);
              return (
                <tr
                  key={String(row.id ?? index)}
                  data-testid="sheet-row"
                  data-tone={tone ?? undefined}
                  className="group"
                >
                  {columns.map((column, columnIndex) => {
                    const kind = inferCellKind(column.key, column.kind);
                    return (
                      <td
                        key={column.key}
                        data-key={column.key}
                        // Long addresses and descriptions are cut to the column; hover shows them whole.
                        title={typeof row[column.key] === 'string' ? String(row[column.key]) : undefined}
                        className={cn(
                          'max-w-80 truncate whitespace-nowrap border-b px-3 py-2',
                          isNumericKind(kind) && 'text-right tabular-nums',
                          // Solid colours: the sticky first cell must hide what scrolls under it.
                          tone === 'review'
                            ? 'bg-amber-50 group-hover:bg-amber-100'
                            : tone === 'failed'
                              ? 'bg-red-50 group-hover:bg-red-100'
                              : 'bg-card group-hover:bg-muted',
                          columnIndex === 0 && 'sticky left-0 z-[5] border-r font-medium',
                        )}
                      >
                        <SheetCell row={row} column={column} kind={kind} />
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 text-muted-foreground text-sm">
        <span>
          {formatRowCount(sheet.data?.total ?? rows.length, tab)} · {columns.length} columns
          {rows.some((row) => getRowTone(row) === 'review') && ' · rows needing review are highlighted'}
        </span>
        {pageCount > 1 && (
          <div className="flex items-center gap-2">
            <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <span className="tabular-nums">
              Page {page} of {pageCount}
            </span>
            <Button
              size="sm"
              variant="outline"
              disabled={page >= pageCount}
              onClick={() => setPage((p) => p + 1)}
            >
              Next
            </Button>
          </div>
        )}
      </div>
    </>
  );

  return (
    <SheetFlowContext.Provider value={flowId}>
      <div className="flex min-w-0 flex-col gap-6">
        <div>
          <Button asChild variant="ghost" size="sm" className="-ml-2 mb-2 text-muted-foreground">
            <Link to="/parse">
              <ArrowLeftIcon aria-hidden="true" />
              Document Processing
            </Link>
          </Button>
          <PageHeader
            title={flow?.io.output.sheetName || 'Output sheet'}
            description={flow ? `Rows written by ${flow.name}` : 'Rows written by this flow'}
            actions={
              <>
                <Button asChild variant="outline" size="sm">
                  <a href={getSheetDownloadUrl(flowId, 'xlsx')} download data-testid="download-xlsx">
                    <DownloadIcon aria-hidden="true" />
                    Download .xlsx
                  </a>
                </Button>
                <Button asChild variant="outline" size="sm">
                  <a href={getSheetDownloadUrl(flowId, 'csv', tab)} download data-testid="download-csv">
                    <DownloadIcon aria-hidden="true" />
                    Download .csv
                  </a>
                </Button>
              </>
            }
          />
        </div>

        <Tabs value={tab} onValueChange={switchTab}>
          <TabsList>
            <TabsTrigger value="documents">Documents</TabsTrigger>
            <TabsTrigger value="lines">Line Items</TabsTrigger>
          </TabsList>
          {/* Both panels exist (the hidden one empty) so each tab's aria-controls names a real element. */}
          {(['documents', 'lines'] as const).map((value) => (
            <TabsContent
              key={value}
              value={value}
              forceMount
              hidden={value !== tab}
              className="flex flex-col gap-4"
            >
              {value === tab && tabBody}
            </TabsContent>
          ))}
        </Tabs>
      </div>
    </SheetFlowContext.Provider>
  );
}
