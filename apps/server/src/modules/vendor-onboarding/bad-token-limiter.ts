import { AppError } from '../../lib/app-error.ts';

/**
 * Counts, per client address, the public form's requests with a token that opens nothing, and refuses
 * every request of an address past {@link BadTokenLimiter.max} of them within the window (`rate_limited`),
 * so nobody can try tokens one after another. Kept in the process: a determined attacker spread over
 * several server processes still meets a 256-bit token space; the limiter is against noisy guessing.
 */
export class BadTokenLimiter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly max = 20,
    readonly windowMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses an address that tried too many bad tokens lately. */
  check(address: string): void {
    const entry = this.failures.get(address);
    if (entry && entry.resetAt <= this.now()) this.failures.delete(address);
    else if (entry && entry.count >= this.max)
      throw new AppError(
        'rate_limited',
        'Too many links that do not work were tried from here. Wait a few minutes, then open the link you were sent.',
      );
  }

  /** Counts one bad token from the address. */
  fail(address: string): void {
    const now = this.now();
    const entry = this.failures.get(address);
    if (!entry || entry.resetAt <= now)
      this.failures.set(address, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
    // Bounded memory: a flood from many addresses forgets the oldest ones.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
  }
}
