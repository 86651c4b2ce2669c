import type { Endpoint, PathParamName, PathParams } from '@bahi/contracts';
import type { z } from 'zod';
import { type FetchLike, requestApi } from './api.ts';

export type { Endpoint, HttpMethod, PathParamName, PathParams } from '@bahi/contracts';

/**
 * Query string values by the keys of the route's query schema. Values are sent as typed by the caller
 * (the server coerces and validates them); `undefined`, `null` and `''` leave the key out.
 */
export type QueryValues<Q extends z.ZodType> = {
  readonly [K in keyof z.input<Q>]?: string | number | null | undefined;
};

/** What `callEndpoint` needs for `E`: path params, body and query only where the endpoint has them. */
export type EndpointCall<E extends Endpoint> = { readonly signal?: AbortSignal | undefined } & ([
  PathParamName<E['path']>,
] extends [never]
  ? { readonly params?: undefined }
  : { readonly params: PathParams<E['path']> }) &
  (E extends { body: infer B extends z.ZodType }
    ? { readonly body: z.input<B> }
    : { readonly body?: undefined }) &
  (E extends { query: infer Q extends z.ZodType }
    ? { readonly query?: QueryValues<Q> }
    : { readonly query?: undefined });

/** The answer of `E` as its contract describes it. */
export type EndpointResponse<E extends Endpoint> = z.output<E['response']>;

/** `callEndpoint`'s arguments: the options may be left out when the endpoint needs none. */
type CallArgs<E extends Endpoint> = [PathParamName<E['path']>] extends [never]
  ? E extends { body: z.ZodType }
    ? [call: EndpointCall<E>]
    : [call?: EndpointCall<E>]
  : [call: EndpointCall<E>];

/**
 * Fills a path template's `:params` (each URI-encoded) and appends the query string. Used for calls
 * and for the links the web hands to the browser (downloads, the upload target, the event stream).
 */
export function buildApiPath<P extends string>(
  template: P,
  params: PathParams<P>,
  query?: Readonly<Record<string, string | number | null | undefined>>,
): string {
  const values = params as Readonly<Record<string, string>>;
  const path = template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    // A missing id would call another route (`/api/runs/`): refuse instead of guessing.
    if (value === undefined) throw new Error(`${template}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The server answered a 2xx whose body does not match the endpoint's contract (development only). */
export class EndpointResponseError extends Error {
  /** The endpoint's catalogue name. */
  readonly endpoint: string;
  /** What did not match, by path in the answer. */
  readonly issues: ReadonlyArray<{ path: string; message: string }>;

  constructor(endpoint: Endpoint, error: z.ZodError) {
    const issues = error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(the whole answer)',
      message: issue.message,
    }));
    const shown = issues
      .slice(0, 5)
      .map((issue) => `${issue.path}: ${issue.message}`)
      .join('; ');
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super(
      `${endpoint.name} (${endpoint.method} ${endpoint.path}): the server's answer does not match its contract in @bahi/contracts — ${shown}${more}`,
    );
    this.name = 'EndpointResponseError';
    this.endpoint = endpoint.name;
    this.issues = issues;
  }
}

/** How a caller reaches the server; tests replace it. */
export interface EndpointTransport {
  /** Check each answer against the endpoint's response schema (default: in development builds only). */
  readonly validate?: boolean;
  readonly fetchImpl?: FetchLike;
}

/** `callEndpoint`'s shape: the endpoint, then its params, body, query and signal when it has any. */
export type CallEndpoint = <E extends Endpoint>(
  endpoint: E,
  ...call: CallArgs<E>
) => Promise<EndpointResponse<E>>;

/**
 * Builds a `callEndpoint` over `transport`. The app uses the default one (`callEndpoint`); tests make
 * their own with a stand-in `fetch` and validation on or off.
 */
export function createEndpointCaller(transport: EndpointTransport = {}): CallEndpoint {
  return async <E extends Endpoint>(endpoint: E, ...[call]: CallArgs<E>) => {
    const options = (call ?? {}) as {
      params?: Readonly<Record<string, string>>;
      body?: unknown;
      query?: Readonly<Record<string, string | number | null | undefined>>;
      signal?: AbortSignal | undefined;
    };
    const path = buildApiPath(endpoint.path, options.params ?? {}, options.query);
    const init = { method: endpoint.method, body: options.body, signal: options.signal };
    const answer = transport.fetchImpl
      ? await requestApi<unknown>(path, init, transport.fetchImpl)
      : await requestApi<unknown>(path, init);
    if (transport.validate ?? import.meta.env.DEV) {
      const checked = endpoint.response.safeParse(answer);
      if (!checked.success) throw new EndpointResponseError(endpoint, checked.error);
    }
    return answer as EndpointResponse<E>;
  };
}

/**
 * Calls a declared endpoint: fills the path, sends the body as JSON with the session cookie and
 * answers with the body typed by the contract. Throws `ApiError` as `requestApi` does. In development
 * the answer is also checked against the endpoint's response schema, and a mismatch throws an
 * `EndpointResponseError` naming the endpoint, so a contract and a server that drift apart fail loudly
 * where they are built. Production skips the check (the server's routes are declared with the same
 * schemas). The answer is returned as sent, not as parsed, so both builds hand the page the same object.
 */
export const callEndpoint: CallEndpoint = createEndpointCaller();
