import { type ErrorCode, errorCodes } from '@bahi/contracts';

/**
 * What an `ApiError` can carry: one of the contract's error codes, `network` when no answer came, or
 * `http_<status>` when the answer had no code the contract knows (a proxy's error page).
 */
export type ApiErrorCode = ErrorCode | 'network' | `http_${number}`;

/** An error answered by the Bahi API (`{ error: { code, message, fields? } }`) or a network failure. */
export class ApiError extends Error {
  /** API error code (`unauthenticated`, `validation`, …) or `network` / `http_<status>` when none was sent. */
  readonly code: ApiErrorCode;
  /** HTTP status, 0 when the request never got an answer. */
  readonly status: number;
  /** Per-field messages for validation errors. */
  readonly fields: Record<string, string>;

  constructor(code: ApiErrorCode, message: string, status: number, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
  }
}

/** The `error` object of the API's error envelope, or null when `body` is not one. */
function readErrorEnvelope(body: unknown): { code: unknown; message: string; fields?: unknown } | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('code' in error) || !('message' in error)) return null;
  return typeof error.message === 'string' ? (error as { code: unknown; message: string }) : null;
}

/** True when `code` is one of the contract's error codes. */
function isErrorCode(code: unknown): code is ErrorCode {
  return (errorCodes as readonly unknown[]).includes(code);
}

/**
 * Turns a non-OK response body into an `ApiError`. Kept separate from `fetch` so the mapping is
 * testable and so a proxy's HTML error page still yields a readable message. A code outside the
 * contract's union becomes `http_<status>` (the message is kept), so callers only ever switch on
 * codes the contract declares.
 */
export function toApiError(status: number, body: unknown): ApiError {
  const error = readErrorEnvelope(body);
  if (!error) return new ApiError(`http_${status}`, `Request failed with status ${status}`, status);
  const fields = (error.fields ?? {}) as Record<string, string>;
  return new ApiError(isErrorCode(error.code) ? error.code : `http_${status}`, error.message, status, fields);
}

/** `fetch`, or a stand-in in tests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Calls the Bahi API with the session cookie and JSON bodies, returning the parsed JSON answer.
 * Throws `ApiError` on network failure or any non-2xx answer.
 */
export async function requestApi<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
  fetchImpl: FetchLike = (input, requestInit) => fetch(input, requestInit),
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetchImpl(path, {
      method: init.method ?? 'GET',
      credentials: 'include',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('network', 'Could not reach the Bahi server. Check your connection and try again.', 0);
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) throw toApiError(response.status, body);
  return body as T;
}

/** Posts a multipart form (a file upload) with the session cookie; answers like {@link requestApi}. */
export async function requestApiForm<T>(path: string, form: FormData): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { accept: 'application/json' },
      body: form,
    });
  } catch {
    throw new ApiError('network', 'Could not reach the Bahi server. Check your connection and try again.', 0);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) throw toApiError(response.status, body);
  return body as T;
}
