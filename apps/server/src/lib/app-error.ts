import type { ErrorCode } from '@bahi/contracts';
import type { z } from 'zod';

export type { ErrorCode };

/**
 * The one error type services throw. It names what went wrong in domain terms (a code from the shared
 * contract) and never an HTTP status: `http/error-handler.ts` alone maps codes to statuses.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** Per-field messages for validation errors, keyed by dotted path. */
  readonly fields: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }
}

/** True for an `AppError` with the given code (handy in tests and retries). */
export function isAppError(error: unknown, code?: ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}

/** Builds a validation error from field messages; the first message becomes the summary. */
export function createValidationError(fields: Record<string, string>): AppError {
  const first = Object.values(fields)[0] ?? 'Invalid request';
  return new AppError('validation', first, fields);
}

/** Turns zod issues into `{ 'dotted.path': message }`, first message per field. */
export function collectFieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Parses with a zod schema, turning failures into a validation `AppError` (services validate too). */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw createValidationError(collectFieldErrors(result.error));
  return result.data;
}
