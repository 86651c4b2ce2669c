import { useEffect, useRef, useState } from 'react';
import { getRun, getRunEventsUrl, type Run, toProgressView } from './flows-api.ts';
import { readRunEvent } from './run-events.ts';
import { isRunActive, type RunProgressView } from './run-progress.ts';

/** How often the polling fallback asks for the run. */
const POLL_MS = 1000;

/**
 * Follows a run live: server-sent events from `GET /api/runs/:id/events`, falling back to polling
 * `GET /api/runs/:id` when the stream fails (a proxy that buffers SSE, an old browser). Calls
 * `onEnd` once with the finished run.
 */
export function useRunWatch(runId: string | null, onEnd: (run: Run) => void): RunProgressView | null {
  const [progress, setProgress] = useState<RunProgressView | null>(null);
  // The latest callback without re-subscribing on every render.
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  useEffect(() => {
    if (!runId) {
      setProgress(null);
      return;
    }
    setProgress({ done: 0, total: 0, currentFile: null });
    let finished = false;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let source: EventSource | null = null;
    const controller = new AbortController();

    const finish = async (run: Run | null) => {
      if (finished) return;
      finished = true;
      source?.close();
      clearTimeout(pollTimer);
      // The end event may carry only a status: read the stored run for its final counts.
      let final = run;
      try {
        final = await getRun(runId, controller.signal);
      } catch {
        // Keep what the stream said.
      }
      if (final && !controller.signal.aborted) {
        setProgress({ ...toProgressView(final), currentFile: null });
        onEndRef.current(final);
      }
    };

    const poll = async () => {
      if (finished || controller.signal.aborted) return;
      try {
        const run = await getRun(runId, controller.signal);
        if (!isRunActive(run.status)) return void finish(run);
        setProgress(toProgressView(run));
      } catch {
        // A blip: try again on the next tick.
      }
      pollTimer = setTimeout(poll, POLL_MS);
    };

    const handle = (name: string, data: string) => {
      const event = readRunEvent(name, data);
      if (event.kind === 'progress') setProgress(event.progress);
      else if (event.kind === 'end') void finish(event.run);
    };

    if (typeof EventSource === 'undefined') {
      void poll();
    } else {
      source = new EventSource(getRunEventsUrl(runId), { withCredentials: true });
      source.addEventListener('progress', (e) => handle('progress', (e as MessageEvent<string>).data));
      source.addEventListener('end', (e) => handle('end', (e as MessageEvent<string>).data));
      source.onmessage = (e) => handle('message', e.data);
      source.onerror = () => {
        // Whatever went wrong (stream closed early, proxy, 404), polling tells the truth.
        source?.close();
        source = null;
        if (!finished) void poll();
      };
    }
    return () => {
      controller.abort();
      source?.close();
      clearTimeout(pollTimer);
    };
  }, [runId]);

  return progress;
}
