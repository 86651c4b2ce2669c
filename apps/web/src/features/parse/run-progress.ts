/** What the run progress bar shows: documents done of total and the file being read. */
export interface RunProgressView {
  done: number;
  total: number;
  failed?: number | undefined;
  needsReview?: number | undefined;
  currentFile?: string | null | undefined;
  /** Documents in flight counted by the share of their pages read, so the bar moves within a document. */
  partialDone?: number | undefined;
}

/**
 * Whole-number percentage of documents done, 0–100. A run that has not counted its documents yet
 * (total 0) is 0%, and nothing over-reports past 100% if counters race.
 */
export function computeProgressPercent(done: number, total: number): number {
  if (!Number.isFinite(done) || !Number.isFinite(total) || total <= 0 || done <= 0) return 0;
  if (done >= total) return 100;
  // Floor so 99.6% never shows as a finished 100% while a document is still being read.
  return Math.floor((done / total) * 100);
}

/** "2 of 5 documents" line under the progress bar. */
export function formatProgressLine(progress: RunProgressView): string {
  if (progress.total <= 0) return 'Looking for documents…';
  const noun = progress.total === 1 ? 'document' : 'documents';
  return `${Math.min(progress.done, progress.total)} of ${progress.total} ${noun}`;
}

/**
 * The line above a finished run's bar: "Finished — 3 of 3 documents · 1 need review · 1 failed",
 * or "Finished — no new documents" when the run found nothing to do.
 */
export function formatFinishedLine(progress: RunProgressView): string {
  if (progress.total <= 0) return 'Finished — no new documents';
  const parts = [`Finished — ${formatProgressLine(progress)}`];
  if (progress.needsReview) parts.push(`${progress.needsReview} need review`);
  if (progress.failed) parts.push(`${progress.failed} failed`);
  return parts.join(' · ');
}

/** Counts a finished run reports in its toast. */
export interface RunOutcome {
  status: string;
  processed: number;
  needsReview: number;
  failed: number;
  error?: string | null | undefined;
}

/**
 * Toast text when a run ends: "Run finished — 3 processed, 1 need review, 0 failed", or the
 * failure message when the run itself failed (not just some of its documents).
 */
export function describeRunOutcome(outcome: RunOutcome): {
  kind: 'success' | 'warning' | 'error';
  message: string;
} {
  if (outcome.status === 'failed') {
    return { kind: 'error', message: outcome.error ? `Run failed — ${outcome.error}` : 'Run failed' };
  }
  const message = `Run finished — ${outcome.processed} processed, ${outcome.needsReview} need review, ${outcome.failed} failed`;
  return { kind: outcome.failed > 0 || outcome.needsReview > 0 ? 'warning' : 'success', message };
}

/** Whether a run status means work is still going on (button disabled, progress bar shown). */
export function isRunActive(status: string | null | undefined): boolean {
  return status === 'queued' || status === 'running' || status === 'pending';
}

/** What a run's badge needs of it: its status and, once finished, its counts. */
export interface RunStatusInput {
  status: string;
  counts: { total?: number | undefined; failed: number; needsReview: number };
}

/**
 * Label and colour of a run. A run that completed with documents that failed or need review is not a
 * plain success: it says how many of its documents need attention ("Finished — 3 of 10 need
 * attention"), so the finance person sees there are files to fix. The server counts a run as succeeded
 * when only the files were at fault; these words are about the documents, not the machinery.
 */
export function describeRunStatus(run: RunStatusInput): {
  label: string;
  tone: 'success' | 'warning' | 'error' | 'neutral';
} {
  if (run.status === 'failed') return { label: 'Failed', tone: 'error' };
  if (run.status === 'queued') return { label: 'Queued', tone: 'neutral' };
  if (run.status === 'running' || run.status === 'pending') return { label: 'Running', tone: 'neutral' };
  const attention = run.counts.failed + run.counts.needsReview;
  // Older answers may lack the total: the documents needing attention are then all that is known.
  const total = Math.max(run.counts.total ?? attention, attention);
  if (attention > 0)
    return {
      label: `Finished — ${attention} of ${total} ${attention === 1 ? 'needs' : 'need'} attention`,
      tone: 'warning',
    };
  if (total === 0) return { label: 'Finished — no new documents', tone: 'neutral' };
  return { label: total === 1 ? 'Finished — OK' : `Finished — all ${total} OK`, tone: 'success' };
}

/**
 * A flow's badge: how its latest run went (`describeRunStatus`), "Last run failed" when the run itself
 * failed, "Not run yet" before the first run, and null while its run history loads (the flow's own
 * `status` says only that some run once succeeded, which could hide failed files).
 */
export function describeFlowStatus(latestRun: RunStatusInput | null | undefined): {
  label: string;
  tone: 'success' | 'warning' | 'error' | 'neutral';
} | null {
  if (latestRun === undefined) return null;
  if (latestRun === null) return { label: 'Not run yet', tone: 'neutral' };
  if (latestRun.status === 'failed') return { label: 'Last run failed', tone: 'error' };
  return describeRunStatus(latestRun);
}

/**
 * The line under the bar: what the server is reading now ("a.pdf and b.pdf": several at once), or the
 * file its scan is checking ("Scanning: x.pdf" from the server).
 */
export function describeCurrentFile(currentFile: string): string {
  const scanning = /^Scanning:\s*(.*)$/.exec(currentFile);
  return scanning ? `Scanning ${scanning[1]}` : `Reading ${currentFile}`;
}
