import { type Run, readRun, readRunCounts } from './flows-api.ts';
import type { RunProgressView } from './run-progress.ts';

/** What one server-sent event means for the progress bar. */
export type RunEvent =
  | { kind: 'progress'; progress: RunProgressView }
  | { kind: 'end'; run: Run }
  | { kind: 'ignore' };

/**
 * Reads one event of `GET /api/runs/:id/events`. Named events (`event: progress` / `event: end`)
 * and unnamed ones carrying a `type` field are both understood, so the page does not depend on
 * which style the server's SSE helper uses.
 */
export function readRunEvent(eventName: string, data: string): RunEvent {
  let payload: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) return { kind: 'ignore' };
    payload = parsed as Record<string, unknown>;
  } catch {
    return { kind: 'ignore' };
  }
  const type = eventName && eventName !== 'message' ? eventName : String(payload.type ?? payload.event ?? '');
  const body = (payload.data && typeof payload.data === 'object' ? payload.data : payload) as Record<
    string,
    unknown
  >;
  if (type === 'end' || type === 'done' || type === 'finished') return { kind: 'end', run: readRun(body) };
  if (type === 'progress' || type === 'status' || type === '') {
    const counts = readRunCounts(body.counts ?? body.progress ?? body);
    const status = typeof body.status === 'string' ? body.status : null;
    if (status && status !== 'queued' && status !== 'running' && type === 'status') {
      return { kind: 'end', run: readRun(body) };
    }
    return {
      kind: 'progress',
      progress: {
        done: counts.done,
        total: counts.total,
        failed: counts.failed,
        needsReview: counts.needsReview,
        currentFile: typeof body.currentFile === 'string' ? body.currentFile : null,
      },
    };
  }
  return { kind: 'ignore' };
}
