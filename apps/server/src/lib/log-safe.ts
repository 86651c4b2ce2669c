/**
 * What the logs may say about an error. A failed query's message (drizzle's "Failed query: <SQL>
 * params: <values>") carries the statement and its parameters — a document's extracted data, what a person
 * typed — so it is never logged; the driver's own message and code are.
 */

/** The SQLSTATE of a database error anywhere in `error`'s cause chain (drizzle wraps the driver's). */
export function findSqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What is logged of an unexpected error: its kind, its code and the first line of the innermost message,
 * cut short, plus the stack's frames. Never the message of a failed query, which carries the SQL statement
 * and its parameters (a document's extracted data, a person's input).
 */
export function describeErrorForLog(error: unknown): Record<string, unknown> {
  let inner: unknown = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (inner as { cause?: unknown } | null)?.cause;
    if (!cause || typeof cause !== 'object') break;
    inner = cause;
  }
  const first = error instanceof Error ? error : undefined;
  const innermost = inner instanceof Error ? inner : first;
  const message = (innermost?.message ?? String(error)).split('\n')[0]!;
  // A query's own message starts with the statement; the driver's (innermost) message does not.
  const safe = /^failed query:/i.test(message) ? 'database query failed' : message.slice(0, 200);
  return {
    name: first?.name ?? typeof error,
    code: findSqlState(error) ?? (innermost as { code?: unknown } | undefined)?.code,
    message: safe,
    frames: first?.stack
      ?.split('\n')
      .filter((line) => line.startsWith('    at '))
      .slice(0, 8)
      .map((line) => line.trim()),
  };
}
