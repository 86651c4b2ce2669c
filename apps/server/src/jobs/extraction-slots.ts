import type { TaskExecutor } from './worker-pool.ts';

/** A counting semaphore: at most `size` holders at once, waiters served in arrival order. */
export interface Slots {
  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Slots held right now. */
  readonly busy: number;
}

/** Creates a semaphore of `size` slots. */
export function createSlots(size: number): Slots {
  let busy = 0;
  const waiters: Array<() => void> = [];
  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else busy--;
  };
  const once = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };
  return {
    get busy() {
      return busy;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(new Error('shutting down'));
      if (busy < size) {
        busy++;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(once());
        };
        const onAbort = () => {
          const i = waiters.indexOf(grant);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error('shutting down'));
        };
        waiters.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

const byExecutor = new WeakMap<TaskExecutor, Slots>();

/**
 * The extraction slots of one process, one per pool thread. Every claim loop of every run in the process
 * (a run leader's and its helpers') takes a slot before it claims a document, so a process never holds
 * more claimed documents than it can extract at once — documents do not wait in this process's pool queue
 * while another worker process sits idle.
 */
export function extractionSlots(executor: TaskExecutor): Slots {
  let slots = byExecutor.get(executor);
  if (!slots) {
    slots = createSlots(executor.size);
    byExecutor.set(executor, slots);
  }
  return slots;
}
