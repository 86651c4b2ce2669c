import { describe, expect, it } from 'vitest';
import { readRunEvent } from './run-events.ts';

describe('readRunEvent', () => {
  it('reads named progress events', () => {
    const event = readRunEvent(
      'progress',
      JSON.stringify({ done: 2, total: 5, currentFile: 'invoice-003.pdf', failed: 1, needsReview: 0 }),
    );
    expect(event).toEqual({
      kind: 'progress',
      progress: { done: 2, total: 5, currentFile: 'invoice-003.pdf', failed: 1, needsReview: 0 },
    });
  });
  it('reads the end event as a run with its counts', () => {
    const event = readRunEvent(
      'end',
      JSON.stringify({
        id: 'r1',
        status: 'success',
        counts: { total: 3, processed: 2, needsReview: 1, failed: 0 },
      }),
    );
    expect(event.kind).toBe('end');
    if (event.kind === 'end') {
      expect(event.run.status).toBe('success');
      expect(event.run.counts).toMatchObject({ total: 3, processed: 2, needsReview: 1, done: 3 });
    }
  });
  it('understands unnamed events with a type field and ignores junk', () => {
    expect(
      readRunEvent('message', JSON.stringify({ type: 'end', status: 'failed', error: 'boom' })).kind,
    ).toBe('end');
    expect(readRunEvent('message', 'not json')).toEqual({ kind: 'ignore' });
    expect(readRunEvent('ping', '{}')).toEqual({ kind: 'ignore' });
  });
});
