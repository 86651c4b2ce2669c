import { RunSchema } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import type { RunRow } from './runs.repo.ts';
import { toRun } from './runs.service.ts';

/** A finished, failed run row as the database holds it. */
function failedRun(errorCode: string): RunRow {
  const at = new Date('2026-11-24T10:00:00Z');
  return {
    id: '00000000-0000-4000-8000-000000000001',
    flowId: '00000000-0000-4000-8000-000000000002',
    organizationId: '00000000-0000-4000-8000-000000000003',
    status: 'failed',
    startedAt: at,
    finishedAt: new Date(at.getTime() + 1000),
    counts: { total: 0, scanned: true },
    startedByUserId: null,
    source: { kind: 'flow' },
    skipped: [],
    // The column holds whatever an older version wrote.
    errorCode: errorCode as RunRow['errorCode'],
    errorMessage: 'The folder has no documents',
    currentFile: null,
    leaseOwner: null,
    heartbeatAt: null,
    attempts: 1,
  } as RunRow;
}

describe('toRun', () => {
  it('answers a run error with its contract code and message', () => {
    const run = toRun(failedRun('empty_folder'));
    expect(run.error).toEqual({ code: 'empty_folder', message: 'The folder has no documents' });
    expect(RunSchema.safeParse(run).success).toBe(true);
  });

  it('reads a code an older version wrote and no longer uses as internal, keeping its words', () => {
    const run = toRun(failedRun('unsupported_source'));
    expect(run.error).toEqual({ code: 'internal', message: 'The folder has no documents' });
    expect(RunSchema.safeParse(run).success).toBe(true);
  });
});
