import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry. One per process on purpose: each API or worker process is scraped on
 * its own (`/metrics`), and Prometheus sums counters across instances.
 */
export const metricsRegistry = new Registry();

// CPU, memory, event-loop lag, GC, handles — the same names every Node exporter uses (`process_*`, `nodejs_*`).
collectDefaultMetrics({ register: metricsRegistry });

const documentsProcessed = new Counter({
  name: 'bahi_documents_processed_total',
  help: 'Documents whose extraction finished and was stored, by outcome (done, needs_review, failed)',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

const documentFailures = new Counter({
  name: 'bahi_document_failures_total',
  help: 'Documents that failed, by error code (engine codes such as encrypted_pdf, or internal)',
  labelNames: ['code'] as const,
  registers: [metricsRegistry],
});

const extractionSeconds = new Histogram({
  name: 'bahi_extraction_seconds',
  help: 'Wall time of one document extraction, including any wait for a free pool thread (text layer well under 1 s, OCR seconds)',
  // Text-layer PDFs land in the first buckets, scanned pages (OCR) in the later ones.
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
  registers: [metricsRegistry],
});

const documentClaims = new Counter({
  name: 'bahi_document_claims_total',
  help: 'Documents this process claimed for extraction: new (pending) or taken_over (the previous worker stopped renewing its claim)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});

const documentsHandedBack = new Counter({
  name: 'bahi_documents_handed_back_total',
  help: 'Claimed documents this process gave back unfinished (pending again) because it was shutting down',
  registers: [metricsRegistry],
});

/** Jobs in the pg-boss queue by state; set from the database at each scrape (see `setQueueDepth`). */
const queueDepth = new Gauge({
  name: 'bahi_queue_jobs',
  help: 'Jobs in the pg-boss queue that are not finished, by queue and state (created, retry, active)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
});

/** Counts one stored document outcome; failures are also counted by their error code. */
export function recordDocumentOutcome(status: string, errorCode?: string | null): void {
  documentsProcessed.inc({ status });
  if (status === 'failed') documentFailures.inc({ code: errorCode || 'unknown' });
}

/** Counts one document claim; `takenOver` when it was claimed from a worker whose claim lapsed. */
export function recordDocumentClaim(takenOver: boolean): void {
  documentClaims.inc({ kind: takenOver ? 'taken_over' : 'new' });
}

/** Counts one claimed document handed back at shutdown. */
export function recordDocumentHandedBack(): void {
  documentsHandedBack.inc();
}

/** Starts timing one extraction; call the returned function when it ends (however it ends). */
export function startExtractionTimer(): () => void {
  const end = extractionSeconds.startTimer();
  return () => {
    end();
  };
}

/** Replaces the queue-depth gauge with fresh counts (states absent from `rows` read as gone). */
export function setQueueDepth(rows: Array<{ queue: string; state: string; count: number }>): void {
  queueDepth.reset();
  for (const row of rows) queueDepth.set({ queue: row.queue, state: row.state }, row.count);
}

/** The registry in Prometheus text exposition format. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry.metrics();
}

/** Content-Type of `renderMetrics()` output. */
export const metricsContentType = metricsRegistry.contentType;
