// The sink registry: the one place that knows which kinds of output exist (`io.output.kind`).
//
// How to add a sink kind:
// 1. Add the kind to `FlowOutputSchema.kind` in @bahi/contracts (a closed enum: the API and the OpenAPI
//    document accept it from there; `SINKS` below then fails to type-check until it has an entry). The
//    web's flow form offers the kinds it knows.
// 2. Write its adapter, an object implementing `SinkAdapter` (sink.ts), in its own file: `checkRunnable`
//    (before a run is queued), `create` (the output, for `POST /api/workflow/sheets/create`), `write` (the
//    flow's rows from the database, idempotently), `toRunError` (whether a failed write fails the run) and
//    its `failureLogs`. Adapters live beside the code that writes their rows: the workbook in
//    modules/sheets/sheets.service.ts (xlsx-workbook.ts itself runs in pool threads and stays lean), Google
//    Sheets in modules/sheets/google-sheet-sink.ts.
// 3. Add its entry to `SINKS`.
// Nothing else changes: runs.service (start), the run processor (end of a run), documents.service (after a
// person's change) and the legacy module (sheets/create) reach sinks only through `sinksFor` and
// `outputSinkFor`, and never test a kind. `registry.test.ts` runs an in-memory sink through those services.

import type { FlowRow } from '../../modules/flows/flows.repo.ts';
import { googleSheetsSink } from '../../modules/sheets/google-sheet-sink.ts';
import { workbookSink } from '../../modules/sheets/sheets.service.ts';
import type { SinkAdapter, SinkKind } from './sink.ts';

/** Every output kind and its adapter (tests may replace an entry, and put it back). */
export const SINKS: Record<SinkKind, SinkAdapter> = {
  xlsx: workbookSink,
  sheets: googleSheetsSink,
};

/** The sink of the output a flow names (`io.output.kind`): the one that creates it. */
export function outputSinkFor(flow: Pick<FlowRow, 'io'>): SinkAdapter {
  return SINKS[flow.io.output.kind];
}

/**
 * Every sink a flow's rows are written to, in order: the workbook first (every flow keeps one, which
 * `sheet.xlsx` downloads), then the flow's own output when that is another.
 */
export function sinksFor(flow: Pick<FlowRow, 'io'>): SinkAdapter[] {
  return [...new Set([workbookSink, outputSinkFor(flow)])];
}
