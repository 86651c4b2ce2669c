import type { Run } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { countDocumentsOfRuns, listInFlightDocuments } from '../documents/documents.repo.ts';
import { findRunsByIds } from './runs.repo.ts';
import { applyLiveCounts, isUnfinished } from './runs.service.ts';

/** Limits of the progress hub. */
export interface RunProgressHubOptions {
  /** How often the watched runs are read (the worker may be another process: the database is the bus). */
  pollMs: number;
  /** Open progress streams one user may hold (tabs, flows) before the next is refused. */
  maxStreamsPerUser: number;
  /** Open progress streams this process serves before the next is refused. */
  maxStreams: number;
}

/** Fans run progress out to every open stream from one poller per process. */
export interface RunProgressHub {
  /**
   * Admits one more stream for `userId`, or throws `rate_limited` past the per-user or per-process cap.
   * Call the returned function when the stream closes.
   */
  admit(userId: string): () => void;
  /**
   * The run as the next poll reads it: null when it no longer exists or `signal` aborted first. However
   * many streams wait on the same run, it is read once per poll.
   */
  next(runId: string, signal: AbortSignal): Promise<Run | null>;
  /** Streams open now (all users). */
  readonly openStreams: number;
  /** Polls made so far (each reads every watched run in two queries). */
  readonly polls: number;
}

/** Sentence for a refused stream; the web client falls back to polling the run. */
const TOO_MANY_STREAMS = 'Too many live progress views are open; close a few tabs and try again';

/**
 * One poller for all progress streams of this process. Every `pollMs`, while anyone waits, it reads all
 * watched runs in one query, and the document counts and in-flight files of the unfinished ones in one
 * query each, and wakes each
 * waiter with its run. Three hundred streams on one run cost the database what one does; streams are
 * capped per user and per process so no one can hold the API's connections.
 */
export function createRunProgressHub(db: Db, options: RunProgressHubOptions): RunProgressHub {
  const waiters = new Map<string, Set<(run: Run | null) => void>>();
  const perUser = new Map<string, number>();
  let open = 0;
  let polls = 0;
  let timer: NodeJS.Timeout | undefined;

  const poll = async () => {
    timer = undefined;
    const batch = new Map(waiters);
    waiters.clear();
    polls++;
    let byId = new Map<string, Run | null>();
    try {
      const rows = await findRunsByIds(db, [...batch.keys()]);
      const unfinished = rows.filter(isUnfinished).map((row) => row.id);
      const [counts, inFlight] = await Promise.all([
        countDocumentsOfRuns(db, unfinished),
        listInFlightDocuments(db, unfinished),
      ]);
      byId = new Map(
        rows.map((row) => [
          row.id,
          applyLiveCounts(row, counts.get(row.id) ?? {}, inFlight.get(row.id) ?? []),
        ]),
      );
    } catch {
      // A failed read (database restarting) is not the run's end: the waiters try again next poll.
      for (const [runId, set] of batch) for (const wake of set) addWaiter(runId, wake);
      return;
    }
    for (const [runId, set] of batch) for (const wake of set) wake(byId.get(runId) ?? null);
  };

  const addWaiter = (runId: string, wake: (run: Run | null) => void) => {
    const set = waiters.get(runId) ?? new Set();
    waiters.set(runId, set);
    set.add(wake);
    if (!timer) {
      timer = setTimeout(() => void poll(), options.pollMs);
      timer.unref();
    }
  };

  return {
    admit(userId) {
      const mine = perUser.get(userId) ?? 0;
      if (mine >= options.maxStreamsPerUser || open >= options.maxStreams)
        throw new AppError('rate_limited', TOO_MANY_STREAMS);
      perUser.set(userId, mine + 1);
      open++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open--;
        const left = (perUser.get(userId) ?? 1) - 1;
        if (left > 0) perUser.set(userId, left);
        else perUser.delete(userId);
      };
    },
    next(runId, signal) {
      if (signal.aborted) return Promise.resolve(null);
      return new Promise((resolve) => {
        const wake = (run: Run | null) => {
          signal.removeEventListener('abort', onAbort);
          resolve(run);
        };
        const onAbort = () => {
          waiters.get(runId)?.delete(wake);
          if (waiters.get(runId)?.size === 0) waiters.delete(runId);
          resolve(null);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        addWaiter(runId, wake);
      });
    },
    get openStreams() {
      return open;
    },
    get polls() {
      return polls;
    },
  };
}
