import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import type * as React from 'react';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import type { SortState } from '@/lib/sort-rows.ts';
import { cn } from '@/lib/utils.ts';

/** One column of a `DataTable`: its header, how a row fills its cell, and how it sits. */
export interface DataColumn<Row> {
  key: string;
  header: React.ReactNode;
  cell: (row: Row) => React.ReactNode;
  /** Numbers sit on the right. */
  align?: 'left' | 'right';
  /** Hidden below the `sm` width: phones keep the columns that matter and lose the rest. */
  hideOnPhone?: boolean;
  /** Its cells name their row for a screen reader (`<th scope="row">`), as a field's name does. */
  rowHeader?: boolean;
  /** Its header is a button that sorts by it (needs `sort` and `onSort` on the table). */
  sortable?: boolean;
  /** Classes of its body cells; a function to colour a cell by its row. */
  cellClassName?: string | ((row: Row) => string | undefined);
  /** Extra attributes of a body cell (`title`, `data-*`). */
  cellProps?: (row: Row) => React.TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, unknown>;
}

/** What a `DataTable` shows while its rows load, fail or are none. */
export interface DataTableState {
  /** The rows are loading: placeholder bars (`aria-busy`). */
  loading?: boolean;
  /** The rows could not load: said in words, as an alert. */
  error?: string | null;
  /** There are no rows: this instead of an empty table. */
  empty?: React.ReactNode;
}

/** A `DataTable`'s rows, columns and how it shows them. */
export interface DataTableProps<Row> extends DataTableState {
  /** The table's accessible name. */
  label?: string;
  columns: DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  rowProps?: (row: Row) => Record<`data-${string}`, unknown>;
  rowClassName?: string | ((row: Row) => string | undefined);
  sort?: SortState;
  onSort?: (key: string) => void;
  /** Phones get these cards instead of the table (from `md` up the table shows). */
  cards?: (rows: readonly Row[]) => React.ReactNode;
  /** The header stays in view while the table scrolls inside a box of at most 70% of the screen. */
  stickyHeader?: boolean;
  /** The first column stays in view while the table scrolls sideways. */
  stickyFirstColumn?: boolean;
  className?: string;
  /** e.g. a minimum width, past which the table scrolls sideways. */
  tableClassName?: string;
  'data-testid'?: string;
}

/** What shows instead of the table while loading, on an error, or with no rows; null when the table shows. */
function renderState({ loading, error, empty }: DataTableState, rowCount: number): React.ReactNode {
  if (loading)
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  if (error)
    return (
      <p
        role="alert"
        className="rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-destructive text-sm"
      >
        {error}
      </p>
    );
  if (rowCount === 0 && empty) return empty;
  return null;
}

/**
 * The one table the lists use (review queue, a flow's sheet, runs, intake): column definitions instead of
 * hand-written markup, sortable headers with `aria-sort`, loading / error / empty states, and on a phone
 * either the table scrolling sideways (focusable, so a keyboard can scroll it) or a card per row.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  rowClassName,
  sort,
  onSort,
  loading,
  error,
  empty,
  cards,
  stickyHeader,
  stickyFirstColumn,
  className,
  tableClassName,
  ...rest
}: DataTableProps<Row>) {
  const state = renderState({ loading, error, empty }, rows.length);
  if (state) return state;
  return (
    <>
      {cards?.(rows)}
      {/* The frame holds the card colour; the scroller inside draws its own edge shadows (scroll-cue-x). */}
      <div
        className={cn('overflow-hidden rounded-lg border bg-card', cards && 'hidden md:block', className)}
        data-testid={rest['data-testid']}
      >
        <div
          className={cn('scroll-cue-x relative overflow-auto', stickyHeader && 'max-h-[70vh]')}
          // Focusable so a keyboard can scroll a table wider than the screen.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard
          tabIndex={0}
        >
          <table
            aria-label={label}
            className={cn('w-full border-separate border-spacing-0 text-sm', tableClassName)}
          >
            <thead>
              <tr>
                {columns.map((column, index) => (
                  <HeaderCell
                    key={column.key}
                    column={column}
                    sort={sort}
                    onSort={onSort}
                    sticky={stickyHeader}
                    stickyLeft={stickyFirstColumn && index === 0}
                  />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, rowIndex) => (
                <tr
                  key={rowKey(row, rowIndex)}
                  className={cn(
                    'group',
                    typeof rowClassName === 'function' ? rowClassName(row) : rowClassName,
                  )}
                  {...rowProps?.(row)}
                >
                  {columns.map((column, index) => (
                    <BodyCell
                      key={column.key}
                      column={column}
                      row={row}
                      stickyLeft={stickyFirstColumn && index === 0}
                    />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}

/** A body cell, or a row header (`<th scope="row">`) for a column that names its row. */
function BodyCell<Row>({
  column,
  row,
  stickyLeft,
}: {
  column: DataColumn<Row>;
  row: Row;
  stickyLeft: boolean | undefined;
}) {
  const className = cn(
    'border-b px-3 py-2 align-top group-last:border-b-0',
    column.align === 'right' && 'text-right tabular-nums',
    column.hideOnPhone && 'hidden sm:table-cell',
    stickyLeft && 'sticky left-0 z-[5] border-r font-medium',
    // A column that colours its cells by row brings its own hover; the rest share this one.
    typeof column.cellClassName === 'function'
      ? column.cellClassName(row)
      : cn('group-hover:bg-muted/40', column.cellClassName),
  );
  if (column.rowHeader)
    return (
      <th scope="row" {...column.cellProps?.(row)} className={cn('text-left font-normal', className)}>
        {column.cell(row)}
      </th>
    );
  return (
    <td {...column.cellProps?.(row)} className={className}>
      {column.cell(row)}
    </td>
  );
}

/** A column header: a sort button (with `aria-sort` on the header) when the column sorts. */
function HeaderCell<Row>({
  column,
  sort,
  onSort,
  sticky,
  stickyLeft,
}: {
  column: DataColumn<Row>;
  sort: SortState | undefined;
  onSort: ((key: string) => void) | undefined;
  sticky: boolean | undefined;
  stickyLeft: boolean | undefined;
}) {
  const sorts = column.sortable && sort && onSort;
  const active = sort?.key === column.key;
  const SortIcon = active ? (sort?.dir === 'asc' ? ArrowUpIcon : ArrowDownIcon) : ArrowUpDownIcon;
  return (
    <th
      scope="col"
      aria-sort={sorts ? (active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none') : undefined}
      className={cn(
        'whitespace-nowrap border-b bg-muted px-3 py-2 font-medium text-muted-foreground',
        column.align === 'right' ? 'text-right' : 'text-left',
        column.hideOnPhone && 'hidden sm:table-cell',
        sticky && 'sticky top-0 z-10',
        stickyLeft && 'sticky left-0 z-20 border-r',
      )}
    >
      {sorts ? (
        <button
          type="button"
          onClick={() => onSort(column.key)}
          className={cn('inline-flex items-center gap-1 hover:text-foreground', active && 'text-foreground')}
        >
          {column.header}
          <SortIcon className="size-3.5 opacity-60" aria-hidden="true" />
        </button>
      ) : (
        column.header
      )}
    </th>
  );
}
