import {
  type Endpoint,
  type ErrorCode,
  type FileEndpoint,
  type FileKind,
  IdParamsSchema,
  type PathParamName,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import { describeErrors, jsonContent } from './router.ts';

/** Where the app mounts the feature modules (`app.route('/api', …)`); a module's routes are relative to it. */
export const API_PREFIX = '/api';

/**
 * Marks a route built from a contracts endpoint with that endpoint's name. A symbol key survives the
 * registry's copies when a module is mounted, and the OpenAPI document does not show it.
 */
const ENDPOINT = Symbol('bahi.endpoint');

/** The name of the contracts endpoint a registered route was built from (by {@link routeFor}), if any. */
export function endpointNameOf(route: object): string | undefined {
  return (route as { [ENDPOINT]?: string })[ENDPOINT];
}

/** The status a route answers with when it succeeds. */
type SuccessStatus = 200 | 201 | 202;

/** What a route adds to its endpoint's declaration: how it is documented and which errors it answers with. */
interface RouteOptions {
  tags: string[];
  summary: string;
  /** Error codes the route answers with (each becomes an OpenAPI response). */
  errors?: readonly ErrorCode[];
  /** Description of the success answer (`OK` unless said). */
  answer?: string;
  /** `[]` for a public route (no session cookie). */
  security?: [];
}

/** The success status (200 unless said), or several, each with its description. */
type StatusOption =
  | { status?: SuccessStatus; answers?: never }
  | { status?: never; answers: Partial<Record<SuccessStatus, string>> };

type StatusOf<O> = O extends { answers: infer A }
  ? keyof A & SuccessStatus
  : O extends { status: infer S extends SuccessStatus }
    ? S
    : 200;

/**
 * The params schema, when the path's params are not just `:id` (which {@link IdParamsSchema} covers): it
 * must name exactly the path's params, checked when the route is built.
 */
type ParamsOption<P extends string> = [PathParamName<P>] extends [never]
  ? { params?: never }
  : [PathParamName<P>] extends ['id']
    ? { params?: z.ZodType<{ id: string }> }
    : { params: z.ZodType<{ [K in PathParamName<P>]: string | number }> };

/** How a JSON request body is described (`OK`, optional, unless said: as the route always did). */
interface BodyOption {
  body?: { description?: string; required?: boolean };
}

/** A multipart upload: documented with a plain schema, not parsed, so the handler can stream it to disk. */
interface UploadOption {
  upload?: { field: string; many: boolean };
}

/** Options of a route that answers with a file: its media type (from the endpoint's kind unless said). */
interface FileOption {
  media?: string;
}

type ParamsOf<E extends { path: string }, O> = O extends { params: infer S extends z.ZodType }
  ? { params: S }
  : [PathParamName<E['path']>] extends [never]
    ? Empty
    : { params: typeof IdParamsSchema };
type QueryOf<E> = E extends { query: infer Q extends z.ZodType } ? { query: Q } : Empty;
type BodyOf<E> = E extends { body: infer B extends z.ZodType }
  ? { body: { description: string; required?: boolean; content: { 'application/json': { schema: B } } } }
  : Empty;
/** No request part. */
type Empty = Record<never, never>;
type Json<S> = { description: string; content: { 'application/json': { schema: S } } };
type Errors = ReturnType<typeof describeErrors>;

/** The `createRoute` config of a JSON endpoint, typed so a handler's params, query, body and answer are checked. */
type JsonRoute<E extends Endpoint, O> = {
  method: Lowercase<E['method']>;
  path: string;
  tags: string[];
  summary: string;
  request: ParamsOf<E, O> & QueryOf<E> & BodyOf<E>;
  responses: { [K in StatusOf<O>]: Json<E['response']> } & Errors;
};

/** The `createRoute` config of a file endpoint (its answer is not JSON: the handler returns a Response). */
type FileRoute<E extends FileEndpoint, O> = {
  method: 'get';
  path: string;
  tags: string[];
  summary: string;
  request: ParamsOf<E, O> & QueryOf<E>;
  responses: {
    200: { description: string; content: Record<string, { schema: z.ZodString | { type: 'string' } }> };
  } & Errors;
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const fileMedia: Record<Exclude<FileKind, 'document'>, { media: string; answer: string }> = {
  xlsx: { media: XLSX, answer: 'The workbook' },
  csv: { media: 'text/csv', answer: 'CSV' },
  xml: { media: 'application/xml', answer: 'The XML file' },
  'event-stream': { media: 'text/event-stream', answer: 'text/event-stream' },
};

/**
 * The server's route for a JSON endpoint `@bahi/contracts` declares: method, path, query, body and answer
 * come from the declaration (written there once); the route adds tags, summary, the success status and the
 * errors. The path is the endpoint's, relative to {@link API_PREFIX}, with `:param` written `{param}`.
 */
export function routeFor<
  const E extends Endpoint,
  const O extends RouteOptions & StatusOption & ParamsOption<E['path']> & BodyOption & UploadOption,
>(endpoint: E, options: O): JsonRoute<E, O> {
  const { body, upload, status = 200, answer, answers = { [status]: answer } } = options;
  const request: Record<string, unknown> = requestOf(endpoint, options.params);
  if (endpoint.body) request.body = { ...jsonContent(endpoint.body, body?.description), ...pick(body) };
  else if (upload) request.body = multipart(upload.field, upload.many);
  const responses = Object.fromEntries(
    Object.entries(answers).map(([code, description]) => [code, jsonContent(endpoint.response, description)]),
  );
  return build(endpoint, options, request, responses);
}

/**
 * The server's route for a file endpoint `@bahi/contracts` declares (a workbook, CSV, XML, an event
 * stream, a stored document): like {@link routeFor}, answering 200 with the file's media type.
 */
export function fileRouteFor<
  const E extends FileEndpoint,
  const O extends RouteOptions & ParamsOption<E['path']> & FileOption,
>(endpoint: E, options: O): FileRoute<E, O> {
  const known = endpoint.file === 'document' ? undefined : fileMedia[endpoint.file];
  const media = options.media ?? known?.media;
  if (!media) throw new Error(`${endpoint.name}: say the media type of a ${endpoint.file} answer`);
  // A stored document is bytes of any kind; the other files are text or a workbook, documented as strings.
  const schema = known ? z.string() : { type: 'string' as const, format: 'binary' };
  const answer = {
    description: options.answer ?? known?.answer ?? 'The file',
    content: { [media]: { schema } },
  };
  return build(endpoint, options, requestOf(endpoint, options.params), { 200: answer });
}

/** `/api/flows/:id/runs` → `/flows/{id}/runs`: the path a module's router declares. */
export function toRouterPath(path: string): string {
  if (!path.startsWith(`${API_PREFIX}/`)) throw new Error(`${path} is not under ${API_PREFIX}`);
  return path.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}');
}

/** The params and query of a route: params from the option, or `{ id }` when `:id` is the path's only one. */
function requestOf(endpoint: Endpoint | FileEndpoint, given: z.ZodType | undefined): Record<string, unknown> {
  // Only a declaration removed from contracts (the typecheck says so too) leaves a route without one.
  if (!endpoint) throw new Error('a route names an endpoint that @bahi/contracts does not declare');
  const names = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const params = given ?? (names.length === 1 && names[0] === 'id' ? IdParamsSchema : undefined);
  const keys = params instanceof z.ZodObject ? Object.keys(params.shape) : [];
  if (keys.sort().join() !== [...names].sort().join())
    throw new Error(`${endpoint.name}: the params schema must name the path's params (${names.join(', ')})`);
  return { ...(params ? { params } : {}), ...(endpoint.query ? { query: endpoint.query } : {}) };
}

function build<T>(
  endpoint: Endpoint | FileEndpoint,
  options: RouteOptions,
  request: Record<string, unknown>,
  answers: Record<number, unknown>,
): T {
  const { tags, summary, errors = [], security } = options;
  return createRoute({
    method: endpoint.method.toLowerCase() as Lowercase<Endpoint['method']>,
    path: toRouterPath(endpoint.path),
    tags,
    summary,
    ...(security ? { security } : {}),
    ...(Object.keys(request).length > 0 ? { request } : {}),
    responses: { ...answers, ...describeErrors(...errors) },
    [ENDPOINT]: endpoint.name,
  } as Parameters<typeof createRoute>[0]) as T;
}

function pick(body: { required?: boolean } | undefined) {
  return body?.required === undefined ? {} : { required: body.required };
}

function multipart(field: string, many: boolean) {
  const binary = { type: 'string' as const, format: 'binary' };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object' as const,
          properties: { [field]: many ? { type: 'array' as const, items: binary } : binary },
        },
      },
    },
  };
}
