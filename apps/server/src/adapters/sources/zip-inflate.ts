import { createInflateRaw, type InflateRaw } from 'node:zlib';

/** Output handed to an entry at a time: inflating and hashing this much takes well under a millisecond. */
const OUTPUT_CHUNK_BYTES = 64 * 1024;

const EMPTY = new Uint8Array(0);

/** A decoder fflate's `Unzip` can use for deflated entries (`unzip.register(...)`), and how to wait on them. */
export interface ThreadedInflater {
  /** The class to register: fflate constructs one per deflated entry. */
  readonly decoder: {
    new (): ThreadedInflate;
    readonly compression: number;
  };
  /** Resolves once every entry's decoder has inflated all it was given (the next slice may be pushed). */
  drained(): Promise<void>;
  /** Stops every decoder whose entry will get no more data (a refused or damaged zip), then waits for all. */
  settle(): Promise<void>;
}

/**
 * One deflated zip entry inflated by node:zlib on libuv's thread pool instead of fflate's inflater on the
 * event loop. fflate inflates a pushed slice whole before it returns: a 16 KB slice of a zip bomb became
 * 16 MB of zeros (inflated, hashed and written) while no other request was served. Here the event loop
 * only hears the output 64 KB at a time, between other requests' turns.
 */
export class ThreadedInflate {
  /** Set by fflate's `Unzip`: where the entry's inflated bytes (or an error) go. */
  ondata: (error: Error | null, chunk: Uint8Array, final: boolean) => void = () => {};
  private readonly stream: InflateRaw = createInflateRaw({ chunkSize: OUTPUT_CHUNK_BYTES });
  /** Compressed slices handed to zlib and not yet inflated. */
  private inflating = 0;
  private wakers: Array<() => void> = [];
  /** The entry got its last compressed bytes (or will get none: terminated, failed). */
  ended = false;
  /** Inflating is over: ended and flushed, failed, or terminated. */
  stopped = false;
  /** Settles when the stream is closed (no more `ondata` after it). */
  readonly closed: Promise<void>;

  constructor() {
    this.stream.on('data', (chunk: Buffer) => {
      if (!this.stopped) this.ondata(null, chunk, false);
    });
    this.stream.on('end', () => {
      if (this.stopped) return;
      this.stop();
      this.ondata(null, EMPTY, true);
    });
    this.stream.on('error', (error) => {
      if (this.stopped) return;
      this.stop();
      this.ondata(error, EMPTY, true);
    });
    this.closed = new Promise((resolve) => this.stream.once('close', resolve));
  }

  /** Called by `Unzip` with the entry's compressed bytes as they arrive. */
  push(chunk: Uint8Array, final: boolean): void {
    if (this.stopped || this.ended) return;
    if (chunk.length > 0) {
      this.inflating++;
      this.stream.write(chunk, () => {
        this.inflating--;
        this.wake();
      });
    }
    if (final) {
      this.ended = true;
      this.stream.end();
    }
  }

  /** Called through the entry's `terminate()`: no more output is wanted (a limit was passed). */
  terminate(): void {
    if (this.stopped) return;
    this.stop();
    this.stream.destroy();
  }

  /** Resolves when all compressed bytes pushed so far are inflated (or inflating stopped). */
  idle(): Promise<void> {
    if (this.stopped || this.inflating === 0) return Promise.resolve();
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  private stop(): void {
    this.stopped = true;
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    if (!this.stopped && this.inflating > 0) return;
    const wakers = this.wakers;
    this.wakers = [];
    for (const resolve of wakers) resolve();
  }
}

/**
 * A decoder class for one zip's `Unzip` that keeps track of its entries, so the caller can hold back the
 * next compressed slice until the last one is inflated (memory stays at a slice's output) and wait for
 * every entry to finish before closing the files they write to.
 */
export function createThreadedInflater(): ThreadedInflater {
  const entries = new Set<ThreadedInflate>();
  class TrackedInflate extends ThreadedInflate {
    static readonly compression = 8;
    constructor() {
      super();
      entries.add(this);
    }
  }
  return {
    decoder: TrackedInflate,
    async drained() {
      await Promise.all([...entries].map((entry) => entry.idle()));
    },
    async settle() {
      for (const entry of entries) if (!entry.ended) entry.terminate();
      await Promise.all([...entries].map((entry) => entry.closed));
    },
  };
}
