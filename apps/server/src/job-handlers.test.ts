import { describe, expect, it } from 'vitest';
import { jobHandlers } from './job-handlers.ts';
import { type JobHandlers, jobPayloads } from './jobs/registry.ts';

describe('job handler table', () => {
  it('has exactly one handler per job name', () => {
    expect(Object.keys(jobHandlers).sort()).toEqual(Object.keys(jobPayloads).sort());
    for (const handler of Object.values(jobHandlers)) expect(typeof handler).toBe('function');
  });

  it('is checked complete at compile time', () => {
    // These lines are the proof, checked by `tsc -b`: if `JobHandlers` stopped requiring a handler per job
    // name (or accepted an unknown one), the expected errors would vanish and tsc would fail on them.
    const { 'flow-workbook': _omitted, ...incomplete } = jobHandlers;
    // @ts-expect-error a job name without a handler does not satisfy the table
    const missing = incomplete satisfies JobHandlers;
    const extra = {
      ...jobHandlers,
      // @ts-expect-error a handler for a job that does not exist is refused too
      'no-such-job': async () => {},
    } satisfies JobHandlers;
    expect(Object.keys(missing)).not.toContain('flow-workbook');
    expect(Object.keys(extra)).toContain('no-such-job');
  });
});
