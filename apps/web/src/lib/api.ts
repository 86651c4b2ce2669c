import type { ErrorResponse } from '@bahi/contracts';

/** An error answered by the Bahi API (`{ error: { code, message, fields? } }`) or a network failure. */
export class ApiError extends Error {
  /** API error code (`unauthenticated`, `validation`, …) or `network` / `http_<status>` when none was sent. */
  readonly code: string;
  /** HTTP status, 0 when the request never got an answer. */
  readonly status: number;
  /** Per-field messages for validation errors. */
  readonly fields: Record<string, string>;

  constructor(code: string, message: string, status: number, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
  }
}

/** True when `body` has the API's error envelope. */
function isErrorResponse(body: unknown): body is ErrorResponse {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'message' in error && 'code' in error;
}

/**
 * Turns a non-OK response body into an `ApiError`. Kept separate from `fetch` so the mapping is
 * testable and so a proxy's HTML error page still yields a readable message.
 */
export function toApiError(status: number, body: unknown): ApiError {
  if (isErrorResponse(body)) {
    return new ApiError(body.error.code, body.error.message, status, body.error.fields ?? {});
  }
  return new ApiError(`http_${status}`, `Request failed with status ${status}`, status);
}

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

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

/** GET a JSON resource. */
export function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return requestApi<T>(path, { signal });
}

/** POST a JSON body. */
export function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  return requestApi<T>(path, { method: 'POST', body });
}

/** PUT a JSON body. */
export function putJson<T>(path: string, body: unknown): Promise<T> {
  return requestApi<T>(path, { method: 'PUT', body });
}
