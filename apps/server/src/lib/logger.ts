import { pino } from 'pino';

/** The structured logger type used across the server. */
export type Logger = pino.Logger;

/** Creates the process logger: JSON lines on stdout, level from LOG_LEVEL. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'bahi-server' } });
}
