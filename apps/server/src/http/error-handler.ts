import { type ErrorCode, type ErrorResponse, UNSAFE_TEXT_MESSAGE } from '@bahi/contracts';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { AppError, collectFieldErrors } from '../lib/app-error.ts';
import { describeErrorForLog, findSqlState } from '../lib/log-safe.ts';
import type { Logger } from '../lib/logger.ts';

/** The only mapping from error codes to HTTP statuses in the server. */
const statusByCode: Record<ErrorCode, ContentfulStatusCode> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  no_organization: 404,
  validation: 400,
  duplicate_gstin: 400,
  conflict: 409,
  gone: 410,
  run_in_progress: 409,
  google_auth_required: 403,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
};

/** HTTP status for an error code. */
export function getStatusForCode(code: ErrorCode): ContentfulStatusCode {
  return statusByCode[code];
}

/** Converts anything thrown into the contract's error body and status. */
export function toErrorResponse(error: unknown): { status: ContentfulStatusCode; body: ErrorResponse } {
  if (error instanceof AppError) {
    const body: ErrorResponse = { error: { code: error.code, message: error.message } };
    if (error.fields) body.error.fields = error.fields;
    return { status: getStatusForCode(error.code), body };
  }
  if (error instanceof ZodError) {
    const fields = collectFieldErrors(error);
    return {
      status: getStatusForCode('validation'),
      body: { error: { code: 'validation', message: Object.values(fields)[0] ?? 'Invalid request', fields } },
    };
  }
  if (error instanceof HTTPException) {
    // hono middleware (CSRF, body limit, malformed JSON) speaks in statuses; translate the common ones.
    const code: ErrorCode =
      error.status === 403
        ? 'forbidden'
        : error.status === 429
          ? 'rate_limited'
          : error.status < 500
            ? 'validation'
            : 'internal';
    const message =
      error.status === 403 ? 'Request refused: cross-site request' : error.message || 'Bad request';
    return { status: getStatusForCode(code), body: { error: { code, message } } };
  }
  // A character PostgreSQL cannot store that a schema let through: the caller's input, not our failure.
  const sqlState = findSqlState(error);
  if (sqlState === '22021' || sqlState === '22P05')
    return {
      status: getStatusForCode('validation'),
      body: { error: { code: 'validation', message: UNSAFE_TEXT_MESSAGE } },
    };
  return { status: 500, body: { error: { code: 'internal', message: 'Something went wrong on our side' } } };
}

/** Hono `onError` handler: answers with the contract's error body and logs unexpected failures. */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context): Response => {
    const { status, body } = toErrorResponse(error);
    if (status >= 500)
      logger.error({ error: describeErrorForLog(error), path: c.req.path }, 'request failed');
    return c.json(body, status);
  };
}
