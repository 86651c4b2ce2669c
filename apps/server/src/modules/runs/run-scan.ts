import { flowMessages, type RunCounts, type RunErrorCode } from '@bahi/contracts';
import { sourceFor } from '../../adapters/sources/index.ts';
import { openLocalFile } from '../../adapters/sources/local-folder.ts';
import { type DocumentSource, hashFile, type SkippedFile } from '../../adapters/sources/source.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { isAppError } from '../../lib/app-error.ts';
import { insertScannedDocument } from '../documents/documents.repo.ts';
import type { FlowRow } from '../flows/flows.repo.ts';
import { HEARTBEAT_MS } from './run-beat.ts';
import { heartbeatRun, type RunRow, saveRunScan } from './runs.repo.ts';
import { emptyCounts } from './runs.service.ts';

/** Most skipped files remembered per run (the count is always exact). */
const MAX_SKIPPED_LISTED = 500;

/** A run ended before its documents because its source could not be read (shown on the run). */
export class RunAbort extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The source a run reads: the flow's (through the source registry), one local file (`process-url`), or
 * none when the run re-reads documents it was given (`documents`).
 */
async function openRunSource(ctx: JobContext, run: RunRow, flow: FlowRow): Promise<DocumentSource | null> {
  const { source } = run;
  if (source.kind === 'documents') return null;
  const { organizationId } = flow;
  if (source.kind === 'file')
    return openLocalFile(ctx, { organizationId, path: source.path, name: source.name });
  const { input } = flow.io;
  return sourceFor(input.kind).open(ctx, { organizationId, flowId: flow.id, input });
}

/** A failure to read the source as the run's error: an `AppError` keeps its code and words. */
function toRunAbort(error: unknown): never {
  if (error instanceof RunAbort) throw error;
  if (isAppError(error)) throw new RunAbort(error.code, error.message);
  throw new RunAbort('source_unreadable', `The documents could not be listed: ${(error as Error).message}`);
}

/**
 * Scan phase: every file of the source becomes a pending document of this run unless the flow already has
 * it (same source id + content hash). Streams the listing and hashes file by file (only files whose hash the
 * source does not already know): memory stays flat. Throws `RunAbort` when the source cannot be read or
 * holds no document.
 */
export async function scanSource(
  ctx: JobContext,
  run: RunRow,
  flow: FlowRow,
): Promise<Pick<RunCounts, 'skipped' | 'alreadyProcessed'>> {
  const skipped: SkippedFile[] = [];
  let skippedCount = 0;
  let files = 0;
  let alreadyProcessed = 0;
  let lastBeat = Date.now();
  const source = await openRunSource(ctx, run, flow).catch(toRunAbort);
  if (source) {
    try {
      for await (const entry of source.list()) {
        if ('skipped' in entry) {
          skippedCount++;
          if (skipped.length < MAX_SKIPPED_LISTED) skipped.push(entry.skipped);
          continue;
        }
        files++;
        const { file } = entry;
        const outcome = await insertScannedDocument(ctx.db, {
          organizationId: flow.organizationId,
          flowId: flow.id,
          runId: run.id,
          sourceKind: source.kind,
          sourceId: file.sourceId,
          contentHash: file.sha256 ?? (await hashFile(file.path)),
          fileName: file.name,
          sourcePath: file.path,
          size: file.size,
          modifiedAt: file.modifiedAt,
        });
        if (outcome === 'processed') alreadyProcessed++;
        if (Date.now() - lastBeat > HEARTBEAT_MS) {
          lastBeat = Date.now();
          await heartbeatRun(ctx.db, {
            runId: run.id,
            workerId: ctx.workerId,
            currentFile: `Scanning: ${file.name}`,
          });
        }
      }
    } catch (error) {
      toRunAbort(error);
    }
    if (files === 0) throw new RunAbort('empty_folder', flowMessages.emptyFolder);
  }
  const counts = { skipped: skippedCount, alreadyProcessed };
  await saveRunScan(ctx.db, {
    runId: run.id,
    workerId: ctx.workerId,
    counts: { ...emptyCounts(), ...counts, scanned: true },
    skipped,
  });
  return counts;
}
