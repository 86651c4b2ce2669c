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

/**
 * Label and colour of a run in the history. A run that completed but could not read some
 * documents is not shown as a plain success: the finance person has files to fix.
 */
export function describeRunStatus(run: { status: string; counts: { failed: number; needsReview: number } }): {
  label: string;
  tone: 'success' | 'warning' | 'error' | 'neutral';
} {
  if (run.status === 'failed') return { label: 'Failed', tone: 'error' };
  if (run.status === 'queued') return { label: 'Queued', tone: 'neutral' };
  if (run.status === 'running') return { label: 'Running', tone: 'neutral' };
  if (run.counts.failed > 0) return { label: 'Finished with errors', tone: 'warning' };
  if (run.counts.needsReview > 0) return { label: 'Needs review', tone: 'warning' };
  return { label: 'Succeeded', tone: 'success' };
}

/**
 * The line under the bar: what the server is reading now ("a.pdf and b.pdf": several at once), or the
 * file its scan is checking ("Scanning: x.pdf" from the server).
 */
export function describeCurrentFile(currentFile: string): string {
  const scanning = /^Scanning:\s*(.*)$/.exec(currentFile);
  return scanning ? `Scanning ${scanning[1]}` : `Reading ${currentFile}`;
}
