import { describe, expect, it } from 'vitest';
import { readRunEvent } from './run-events.ts';

describe('readRunEvent', () => {
  it('reads progress events', () => {
    const event = readRunEvent(
      'progress',
      JSON.stringify({
        runId: 'r1',
        status: 'running',
        done: 2,
        total: 5,
        currentFile: 'invoice-003.pdf',
        failed: 1,
        needsReview: 0,
      }),
    );
    expect(event).toEqual({
      kind: 'progress',
      progress: { done: 2, total: 5, currentFile: 'invoice-003.pdf', failed: 1, needsReview: 0 },
    });
  });
  it('reads the end event as the final run', () => {
    const event = readRunEvent(
      'end',
      JSON.stringify({
        id: 'r1',
        status: 'succeeded',
        counts: { total: 3, done: 2, needsReview: 1, failed: 0, skipped: 0, alreadyProcessed: 0 },
      }),
    );
    expect(event.kind).toBe('end');
    if (event.kind === 'end') expect(event.run.counts.needsReview).toBe(1);
  });
  it('ignores junk and unknown events', () => {
    expect(readRunEvent('progress', 'not json')).toEqual({ kind: 'ignore' });
    expect(readRunEvent('ping', '{}')).toEqual({ kind: 'ignore' });
    expect(readRunEvent('end', '{"status":"succeeded"}')).toEqual({ kind: 'ignore' });
  });
});
