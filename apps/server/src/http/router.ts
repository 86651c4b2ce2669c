import { type ErrorCode, ErrorResponseSchema } from '@bahi/contracts';
import { OpenAPIHono } from '@hono/zod-openapi';
import { collectFieldErrors, createValidationError } from '../lib/app-error.ts';
import type { AppEnv } from './context.ts';
import { getStatusForCode } from './error-handler.ts';

/**
 * A router for one feature module. Invalid requests become `AppError('validation')` with per-field
 * messages, so every module answers validation failures the same way.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw createValidationError(collectFieldErrors(result.error));
    },
  });
}

const descriptions: Record<ErrorCode, string> = {
  unauthenticated: 'Not signed in',
  forbidden: 'Not allowed',
  not_found: 'Not found',
  no_organization: 'The user has no organisation yet',
  validation: 'Invalid request',
  duplicate_gstin: 'A GSTIN is listed twice',
  conflict: 'Conflicts with the current state',
  gone: 'The link no longer works',
  run_in_progress: 'The flow is already running',
  google_auth_required: 'Google authorization required',
  payload_too_large: 'Upload too large',
  rate_limited: 'Too many requests',
  internal: 'Server error',
};

/** OpenAPI response entries for the error codes a route can answer with. */
export function describeErrors(...codes: ErrorCode[]) {
  const responses: Record<
    number,
    { description: string; content: { 'application/json': { schema: typeof ErrorResponseSchema } } }
  > = {};
  for (const code of codes) {
    const status = getStatusForCode(code);
    const existing = responses[status];
    responses[status] = {
      description: existing ? `${existing.description}; ${descriptions[code]}` : descriptions[code],
      content: { 'application/json': { schema: ErrorResponseSchema } },
    };
  }
  return responses;
}

/** JSON request/response body entry for a route definition. */
export function jsonContent<T>(schema: T, description = 'OK') {
  return { description, content: { 'application/json': { schema } } };
}
