import type { z } from 'zod';

/** HTTP methods the Bahi API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Names of the `:params` in a path template (`/api/flows/:id/runs` → `'id'`); a param ends at `/`. */
export type PathParamName<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** Values of a path template's `:params`. */
export type PathParams<P extends string> = { readonly [K in PathParamName<P>]: string };

/**
 * One JSON endpoint of the Bahi API, declared once: the server's route is checked against it (method,
 * path, body, query and answer are the same schemas), the OpenAPI document is built from those routes,
 * and the web calls it through `callEndpoint`.
 */
export interface Endpoint {
  /** Name in the catalogue (`listFlows`), used in error messages. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template with `:params`, e.g. `/api/flows/:id/runs`. */
  readonly path: string;
  /** Request body schema; absent when the request has none (or it is a multipart upload). */
  readonly body?: z.ZodType;
  /** Query string schema. */
  readonly query?: z.ZodType;
  /** What a 2xx answer holds. */
  readonly response: z.ZodType;
}

/** What a file endpoint answers with instead of JSON. */
export type FileKind = 'xlsx' | 'csv' | 'xml' | 'event-stream' | 'document';

/**
 * An endpoint that answers with a file or a stream (a workbook, Tally's XML, a run's progress events, a
 * stored document): the web links to it rather than calling it.
 */
export interface FileEndpoint {
  readonly name: string;
  readonly method: 'GET';
  readonly path: string;
  readonly query?: z.ZodType;
  readonly file: FileKind;
}

/** Names each endpoint of a catalogue after its key, so an error can say which endpoint failed. */
export function defineEndpoints<const T extends Record<string, Omit<Endpoint, 'name'>>>(
  endpoints: T,
): { readonly [K in keyof T]: T[K] & { readonly name: K & string } } {
  return named(endpoints);
}

/** {@link defineEndpoints} for endpoints that answer with files. */
export function defineFileEndpoints<const T extends Record<string, Omit<FileEndpoint, 'name'>>>(
  endpoints: T,
): { readonly [K in keyof T]: T[K] & { readonly name: K & string } } {
  return named(endpoints);
}

function named<T extends Record<string, object>>(
  endpoints: T,
): { readonly [K in keyof T]: T[K] & { readonly name: K & string } } {
  return Object.fromEntries(
    Object.entries(endpoints).map(([name, endpoint]) => [name, { ...endpoint, name }]),
  ) as { readonly [K in keyof T]: T[K] & { readonly name: K & string } };
}
