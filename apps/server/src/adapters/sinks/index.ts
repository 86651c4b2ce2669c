// The sink registry: which kinds of output exist (`io.output.kind`). It sits below the modules and imports
// none: the composition root (src/io-wiring.ts) installs the adapters, which live beside the code that
// writes their rows (the workbook in modules/sheets/sheets.service.ts, Google Sheets in
// modules/sheets/google-sheet-sink.ts), and the services reach them here.
//
// How to add a sink kind:
// 1. Add the kind to `FlowOutputSchema.kind` in @bahi/contracts (a closed enum: the API and the OpenAPI
//    document accept it from there; `installSinks` then fails to type-check until it gets an entry). The
//    web's flow form offers the kinds it knows.
// 2. Write its adapter, an object implementing `SinkAdapter` (sink.ts), in its own file: `checkRunnable`
//    (before a run is queued), `create` (the output, for `POST /api/workflow/sheets/create`), `write` (the
//    flow's rows, idempotently), `toRunError` (whether a failed write fails the run) and its `failureLogs`.
// 3. Add its entry where src/io-wiring.ts installs the sinks.
// Nothing else changes: runs.service (start), the outputs writer (end of a run, the `flow-workbook` job)
// and the legacy module (sheets/create) reach sinks only through `sinksFor` and `outputSinkFor`, and never
// test a kind. `registry.test.ts` runs an in-memory sink through those services.

import type { FlowRow, SinkAdapter, SinkKind } from './sink.ts';

/**
 * Every output kind and its adapter, as the composition root installed them (tests may replace an entry,
 * and put it back). `xlsx` is the workbook every flow keeps.
 */
export const SINKS = {} as Record<SinkKind, SinkAdapter>;

/** Installs the adapter of every output kind (the composition root does, once, before serving). */
export function installSinks(adapters: Record<SinkKind, SinkAdapter>): void {
  Object.assign(SINKS, adapters);
}

function requireSink(kind: SinkKind): SinkAdapter {
  const sink = SINKS[kind];
  if (!sink) throw new Error(`No sink is installed for "${kind}": import src/io-wiring.ts first`);
  return sink;
}

/** The sink of the output a flow names (`io.output.kind`): the one that creates it. */
export function outputSinkFor(flow: Pick<FlowRow, 'io'>): SinkAdapter {
  return requireSink(flow.io.output.kind);
}

/**
 * Every sink a flow's rows are written to, in order: the workbook first (every flow keeps one, which
 * `sheet.xlsx` downloads), then the flow's own output when that is another.
 */
export function sinksFor(flow: Pick<FlowRow, 'io'>): SinkAdapter[] {
  return [...new Set([requireSink('xlsx'), outputSinkFor(flow)])];
}
