import { useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, DownloadIcon, FileSpreadsheetIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { nextSort, type SortState, sortRows } from '@/lib/sort-rows.ts';
import { cn } from '@/lib/utils.ts';
import { flowKeys } from '@/shared/flows/queries.ts';
import { getRowTone, inferCellKind, isNumericKind, orderColumns } from './cell-format.ts';
import { type Flow, getSheetDownloadUrl, getSheetPage, type SheetColumn } from './flows-api.ts';
import { formatRowCount, HIDDEN_KEYS, SheetCell, SheetFlowContext, SheetRowCards } from './sheet-cells.tsx';

type Tab = 'documents' | 'lines';
type Row = Record<string, unknown>;

/** A sheet column as a data-table column: formatted by kind, its row's review tone as the background. */
function toDataColumn(column: SheetColumn): DataColumn<Row> {
  const kind = inferCellKind(column.key, column.kind);
  return {
    key: column.key,
    header: column.label,
    align: isNumericKind(kind) ? 'right' : 'left',
    sortable: true,
    cell: (row) => <SheetCell row={row} column={column} kind={kind} />,
    // Long addresses and descriptions are cut to the column; hover shows them whole.
    cellProps: (row) => ({
      'data-key': column.key,
      title: typeof row[column.key] === 'string' ? String(row[column.key]) : undefined,
    }),
    cellClassName: (row) => {
      const tone = getRowTone(row);
      return cn(
        'max-w-80 truncate whitespace-nowrap align-middle',
        // Solid colours: the sticky first cell must hide what scrolls under it.
        tone === 'review'
          ? 'bg-amber-50 group-hover:bg-amber-100'
          : tone === 'failed'
            ? 'bg-red-50 group-hover:bg-red-100'
            : 'bg-card group-hover:bg-muted',
      );
    },
  };
}

/** The rows of one tab: the table (cards on a phone), the count, and the pages. */
function SheetRows({ flowId, tab }: { flowId: string; tab: Tab }) {
  const [sort, setSort] = useState<SortState>({ key: null, dir: 'asc' });
  const [page, setPage] = useState(1);
  const sheet = useQuery({
    queryKey: [...flowKeys.sheet(flowId), tab, sort.key, sort.dir, page],
    queryFn: ({ signal }) => getSheetPage(flowId, { tab, sort: sort.key, dir: sort.dir, page }, signal),
    placeholderData: (previous) => (previous?.tab === tab ? previous : undefined),
  });
  const columns = orderColumns(sheet.data?.columns ?? [], HIDDEN_KEYS);
  // The server sorts when it can; sorting the page again keeps the order right if it did not.
  const rows = sheet.data ? sortRows(sheet.data.rows, sort) : [];
  const pageCount = sheet.data
    ? Math.max(1, Math.ceil(sheet.data.total / Math.max(1, sheet.data.pageSize)))
    : 1;
  return (
    <>
      <DataTable
        data-testid="sheet-table"
        columns={columns.map(toDataColumn)}
        rows={rows}
        rowKey={(row, index) => String(row.id ?? index)}
        rowProps={(row) => ({ 'data-testid': 'sheet-row', 'data-tone': getRowTone(row) ?? undefined })}
        sort={sort}
        onSort={(key) => {
          setSort((current) => nextSort(current, key));
          setPage(1);
        }}
        loading={sheet.isPending}
        error={sheet.isError ? `Couldn't load the sheet: ${sheet.error.message}` : null}
        empty={
          <EmptyState
            icon={FileSpreadsheetIcon}
            title="No rows yet"
            description="Run the flow: each document it reads adds a row here and to the workbook."
          />
        }
        cards={(shown) => <SheetRowCards rows={[...shown]} columns={columns} />}
        stickyHeader
        stickyFirstColumn
        tableClassName="w-max min-w-full"
      />
      {rows.length > 0 && (
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
      )}
    </>
  );
}

/**
 * The in-app view of a flow's workbook: "Documents" and "Line Items" tabs, a sortable table with a
 * sticky header and horizontal scroll, amounts in Indian grouping, review rows highlighted, and
 * the .xlsx / .csv downloads.
 */
export function SheetView({ flowId, tab, flow }: { flowId: string; tab: Tab; flow?: Flow | undefined }) {
  const navigate = useNavigate();
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

        <Tabs
          value={tab}
          onValueChange={(next) =>
            navigate(getSheetViewPath(flowId, next === 'lines' ? 'lines' : 'documents'), { replace: true })
          }
        >
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
              {/* Keyed by tab: a new tab starts on its first page, in the server's order. */}
              {value === tab && <SheetRows key={tab} flowId={flowId} tab={tab} />}
            </TabsContent>
          ))}
        </Tabs>
      </div>
    </SheetFlowContext.Provider>
  );
}
