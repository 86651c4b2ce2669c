import type { Run, RunProgress } from '@bahi/contracts';
import type { RunProgressView } from './run-progress.ts';

/** What one server-sent event means for the progress bar. */
export type RunEvent =
  | { kind: 'progress'; progress: RunProgressView }
  | { kind: 'end'; run: Run }
  | { kind: 'ignore' };

/**
 * Reads one event of `GET /api/runs/:id/events`: `progress` carries `RunProgress`, `end` the final
 * `Run`. Anything unparsable is ignored rather than breaking the page.
 */
export function readRunEvent(eventName: string, data: string): RunEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return { kind: 'ignore' };
  }
  if (typeof payload !== 'object' || payload === null) return { kind: 'ignore' };
  if (eventName === 'end' && 'counts' in payload) return { kind: 'end', run: payload as Run };
  if (eventName === 'progress' && 'done' in payload) {
    const p = payload as RunProgress;
    return {
      kind: 'progress',
      progress: {
        done: p.done,
        total: p.total,
        failed: p.failed,
        needsReview: p.needsReview,
        currentFile: p.currentFile,
        partialDone: p.partialDone,
      },
    };
  }
  return { kind: 'ignore' };
}
