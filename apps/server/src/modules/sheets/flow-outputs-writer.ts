import { sinksFor } from '../../adapters/sinks/index.ts';
import type { SinkAdapter, SinkContext } from '../../adapters/sinks/sink.ts';
import { type FlowRow, findFlowById, recordOutputsWritten } from '../flows/flows.repo.ts';
import { loadSheetContent } from './sheets.service.ts';

/** A sink's failed write, as the caller decides what it makes of it (a run's error, a job's retry). */
export interface SinkFailure {
  sink: SinkAdapter;
  error: unknown;
}

/**
 * Writes a flow's rows to each of its sinks (the workbook, then the flow's own output). The rows are read
 * from the database once, with the reconciliation an invoice flow's "Matches" tab needs, and every sink
 * writes that same content. Records the outputs' version it read as written when every sink succeeded (a
 * change saved meanwhile keeps them stale: its own job follows), else the first failure's words. Returns
 * the failures; the rows are safe in the database whatever happens.
 */
export async function writeFlowOutputs(ctx: SinkContext, flow: FlowRow): Promise<SinkFailure[]> {
  // The version is read before the rows: a change saved after this point bumps it past what is recorded.
  const version = (await findFlowById(ctx.db, flow.id))?.outputsVersion ?? flow.outputsVersion;
  const content = await loadSheetContent(ctx.db, ctx.env, flow);
  const failures: SinkFailure[] = [];
  for (const sink of sinksFor(flow)) {
    try {
      await sink.write(ctx, flow, content);
    } catch (error) {
      failures.push({ sink, error });
    }
  }
  const first = failures[0];
  await recordOutputsWritten(
    ctx.db,
    flow.id,
    first ? { error: first.error instanceof Error ? first.error.message : String(first.error) } : { version },
  );
  return failures;
}

/**
 * The `flow-workbook` job: rewrites the outputs of a flow a person's change marked stale. Safe to run twice
 * (every sink rewrites from the database, idempotently) and skipped when they are already up to date (a
 * run's end, or an earlier job, wrote them since). Throws when a sink failed, so the queue retries it.
 */
export async function writeStaleFlowOutputs(ctx: SinkContext, flowId: string): Promise<void> {
  const flow = await findFlowById(ctx.db, flowId);
  if (!flow || flow.outputsWrittenVersion >= flow.outputsVersion) return;
  const [failure] = await writeFlowOutputs(ctx, flow);
  if (failure) throw failure.error;
}
