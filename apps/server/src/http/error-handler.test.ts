import { UNSAFE_TEXT_MESSAGE } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { describeErrorForLog } from '../lib/log-safe.ts';
import { createLogger } from '../lib/logger.ts';
import { toErrorResponse } from './error-handler.ts';

/** What drizzle throws for a failed statement: the SQL and its parameters in the message, the driver's error as cause. */
function failedQuery(code: string, driverMessage: string): Error {
  const driver = Object.assign(new Error(driverMessage), { code });
  return new Error(
    `Failed query: update "documents" set "extraction" = $1 where "id" = $2\nparams: {"vendorName":"Secret Traders","total":123456}`,
    { cause: driver },
  );
}

describe('error handler', () => {
  it('answers a character the database cannot store as a validation error, not a 500', () => {
    for (const code of ['22P05', '22021']) {
      expect(toErrorResponse(failedQuery(code, 'unsupported Unicode escape sequence'))).toEqual({
        status: 400,
        body: { error: { code: 'validation', message: UNSAFE_TEXT_MESSAGE } },
      });
    }
    expect(toErrorResponse(failedQuery('57014', 'canceling statement')).status).toBe(500);
  });

  it('logs the code and the driver message of a failed query, never its statement or parameters', () => {
    const logged = JSON.stringify(describeErrorForLog(failedQuery('23505', 'duplicate key value')));
    expect(logged).toContain('23505');
    expect(logged).toContain('duplicate key value');
    expect(logged).not.toMatch(/Secret Traders|update "documents"|params/);
    // An error without a cause keeps its own first line.
    expect(describeErrorForLog(new Error('boom\nmore'))).toMatchObject({ name: 'Error', message: 'boom' });
  });

  it('logs a failed query handed to the process logger as err without its statement or parameters', async () => {
    const lines: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      createLogger('info').error(
        { err: failedQuery('22P05', 'unsupported Unicode escape sequence') },
        'boom',
      );
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.stdout.write = original;
    }
    const logged = lines.join('');
    expect(logged).toContain('22P05');
    expect(logged).toContain('unsupported Unicode escape sequence');
    expect(logged).not.toMatch(/Secret Traders|update "documents"|params/);
  });
});
