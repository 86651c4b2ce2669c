import { pino } from 'pino';
import { describeErrorForLog } from './log-safe.ts';

/** The structured logger type used across the server. */
export type Logger = pino.Logger;

/**
 * Creates the process logger: JSON lines on stdout, level from LOG_LEVEL. Errors logged as `err` are
 * reduced to name, code, first message line and stack frames (`describeErrorForLog`): never a failed
 * query's SQL statement or parameters.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'bahi-server' }, serializers: { err: describeErrorForLog } });
}
