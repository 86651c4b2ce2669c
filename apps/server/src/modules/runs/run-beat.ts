import type { JobContext } from '../../jobs/registry.ts';

/** Longest pause between two proofs of life of a run's leader (lease) or of a worker's document claims. */
export const HEARTBEAT_MS = 15_000;

/**
 * How often claims and leases are renewed: well inside the lease (a third of it at most), so a busy but
 * live worker never loses its run, nor the documents it is extracting.
 */
export function beatMs(ctx: JobContext): number {
  return Math.min(HEARTBEAT_MS, (ctx.env.flows.leaseSeconds * 1000) / 3);
}
