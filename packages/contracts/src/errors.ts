import { z } from 'zod';

/**
 * Every error code the API can answer with. The server maps each to one HTTP status in a single place
 * (apps/server/src/http/error-handler.ts); the web switches on the code, never on the status.
 */
export const errorCodes = [
  'unauthenticated',
  'forbidden',
  'not_found',
  'no_organization',
  'validation',
  'duplicate_gstin',
  'conflict',
  /** A link that no longer works (expired or revoked): 410. */
  'gone',
  'run_in_progress',
  'google_auth_required',
  'payload_too_large',
  'rate_limited',
  'internal',
] as const;

/** Error code carried by every error response. */
export const ErrorCodeSchema = z.enum(errorCodes);
/** Error code carried by every error response. */
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Shape of every error response: `{ error: { code, message, fields? } }`. */
export const ErrorResponseSchema = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    /** Per-field messages for validation errors, keyed by dotted path (e.g. `gstins.1.gstin`). */
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
/** Shape of every error response. */
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
