import { PlusIcon, Trash2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { CellInput, type FieldProps } from './field-input.tsx';
import type { buildLineRows, ReviewValue } from './review-fields.ts';

/** The document's line items as an editable table: a row per line, a cell input per value. */
export function LineItems({
  lines,
  editable,
  busy,
  fieldProps,
  onChangeLines,
}: {
  lines: ReturnType<typeof buildLineRows>;
  editable: boolean;
  /** A change is being saved: adding and deleting wait for it. */
  busy: boolean;
  fieldProps: (value: ReviewValue) => FieldProps;
  onChangeLines: (change: { deleteLines?: number[]; addLines?: number }) => void;
}) {
  return (
    <section aria-labelledby="lines-title" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="lines-title" className="font-medium text-muted-foreground text-sm">
          Line items ({lines.rows.length})
        </h2>
        {editable && (
          <Button size="sm" variant="outline" onClick={() => onChangeLines({ addLines: 1 })} disabled={busy}>
            <PlusIcon aria-hidden="true" />
            Add a line
          </Button>
        )}
      </div>
      {/* relative: the screen-reader-only header is placed, and clipped, inside the scroller. */}
      <div className="relative overflow-x-auto rounded-lg border bg-card">
        <table className="w-full min-w-[48rem] border-collapse text-sm">
          <thead>
            <tr className="border-b bg-muted/50 text-left">
              <th scope="col" className="px-2 py-2 font-medium text-muted-foreground">
                #
              </th>
              {lines.columns.map((c) => (
                <th key={c.name} scope="col" className="px-2 py-2 font-medium text-muted-foreground">
                  {c.label}
                </th>
              ))}
              {editable && (
                <th scope="col" className="px-2 py-2 font-medium text-muted-foreground">
                  <span className="sr-only">Delete</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {lines.rows.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are numbered by their place on the document.
              <tr key={i} className="border-b last:border-0">
                <td className="px-2 py-1 text-muted-foreground tabular-nums">{i + 1}</td>
                {row.map((value) => (
                  <td key={value.key} className="px-1 py-1 align-top">
                    <CellInput {...fieldProps(value)} />
                  </td>
                ))}
                {editable && (
                  <td className="px-1 py-1 align-top">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete line ${i + 1}`}
                      title="Delete this line (a total, a banner or bank details read as an item)"
                      onClick={() => onChangeLines({ deleteLines: [i + 1] })}
                      disabled={busy}
                    >
                      <Trash2Icon aria-hidden="true" />
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
