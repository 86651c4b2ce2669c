import { describe, expect, it } from 'vitest';
import {
  computeProgressPercent,
  describeCurrentFile,
  describeFlowStatus,
  describeRunOutcome,
  describeRunStatus,
  formatFinishedLine,
  formatProgressLine,
  isRunActive,
} from './run-progress.ts';

describe('computeProgressPercent', () => {
  it('is a floored whole percentage clamped to 0–100', () => {
    expect(computeProgressPercent(0, 3)).toBe(0);
    expect(computeProgressPercent(1, 3)).toBe(33);
    expect(computeProgressPercent(2, 3)).toBe(66);
    expect(computeProgressPercent(199, 200)).toBe(99);
    expect(computeProgressPercent(3, 3)).toBe(100);
    expect(computeProgressPercent(5, 3)).toBe(100);
  });
  it('is 0 before the run has counted its documents', () => {
    expect(computeProgressPercent(0, 0)).toBe(0);
    expect(computeProgressPercent(2, 0)).toBe(0);
    expect(computeProgressPercent(Number.NaN, 4)).toBe(0);
  });
});

describe('formatProgressLine', () => {
  it('counts documents done of total', () => {
    expect(formatProgressLine({ done: 2, total: 5 })).toBe('2 of 5 documents');
    expect(formatProgressLine({ done: 1, total: 1 })).toBe('1 of 1 document');
    expect(formatProgressLine({ done: 0, total: 0 })).toBe('Looking for documents…');
  });
});

describe('describeRunOutcome', () => {
  it('summarises a finished run with its counts', () => {
    expect(describeRunOutcome({ status: 'success', processed: 3, needsReview: 1, failed: 0 })).toEqual({
      kind: 'warning',
      message: 'Run finished — 3 processed, 1 need review, 0 failed',
    });
    expect(describeRunOutcome({ status: 'success', processed: 3, needsReview: 0, failed: 0 }).kind).toBe(
      'success',
    );
  });
  it('reports a failed run with its message', () => {
    expect(
      describeRunOutcome({
        status: 'failed',
        processed: 0,
        needsReview: 0,
        failed: 0,
        error: 'No documents found',
      }),
    ).toEqual({ kind: 'error', message: 'Run failed — No documents found' });
  });
});

describe('isRunActive', () => {
  it('treats queued and running as in progress', () => {
    expect(isRunActive('queued')).toBe(true);
    expect(isRunActive('running')).toBe(true);
    expect(isRunActive('success')).toBe(false);
    expect(isRunActive(null)).toBe(false);
  });
});

describe('formatFinishedLine', () => {
  it('adds review and failure counts only when there are some', () => {
    expect(formatFinishedLine({ done: 3, total: 3, needsReview: 0, failed: 0 })).toBe(
      'Finished — 3 of 3 documents',
    );
    expect(formatFinishedLine({ done: 3, total: 3, needsReview: 1, failed: 1 })).toBe(
      'Finished — 3 of 3 documents · 1 need review · 1 failed',
    );
    expect(formatFinishedLine({ done: 0, total: 0 })).toBe('Finished — no new documents');
  });
});

describe('describeRunStatus', () => {
  const counts = { total: 10, failed: 0, needsReview: 0 };
  it('says how many documents need attention rather than a plain success', () => {
    expect(describeRunStatus({ status: 'succeeded', counts })).toEqual({
      label: 'Finished — all 10 OK',
      tone: 'success',
    });
    expect(
      describeRunStatus({ status: 'succeeded', counts: { total: 10, failed: 2, needsReview: 1 } }),
    ).toEqual({
      label: 'Finished — 3 of 10 need attention',
      tone: 'warning',
    });
    expect(
      describeRunStatus({ status: 'succeeded', counts: { total: 4, failed: 1, needsReview: 0 } }).label,
    ).toBe('Finished — 1 of 4 needs attention');
    expect(
      describeRunStatus({ status: 'succeeded', counts: { total: 0, failed: 0, needsReview: 0 } }).label,
    ).toBe('Finished — no new documents');
    expect(describeRunStatus({ status: 'failed', counts }).tone).toBe('error');
    expect(describeRunStatus({ status: 'running', counts }).label).toBe('Running');
  });
});

describe('describeFlowStatus', () => {
  it("is the latest run's outcome, never a green success over failed files", () => {
    expect(describeFlowStatus(undefined)).toBeNull();
    expect(describeFlowStatus(null)).toEqual({ label: 'Not run yet', tone: 'neutral' });
    expect(
      describeFlowStatus({ status: 'succeeded', counts: { total: 10, failed: 3, needsReview: 0 } }),
    ).toEqual({ label: 'Finished — 3 of 10 need attention', tone: 'warning' });
    expect(describeFlowStatus({ status: 'failed', counts: { total: 0, failed: 0, needsReview: 0 } })).toEqual(
      {
        label: 'Last run failed',
        tone: 'error',
      },
    );
  });
});

describe('describeCurrentFile', () => {
  it('says what is read now, several files included, and what the scan is checking', () => {
    expect(describeCurrentFile('a.pdf, b.pdf and 2 more')).toBe('Reading a.pdf, b.pdf and 2 more');
    expect(describeCurrentFile('Scanning: inbox/x.pdf')).toBe('Scanning inbox/x.pdf');
  });
});
