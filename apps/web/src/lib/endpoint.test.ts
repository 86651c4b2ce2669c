import { defineEndpoints } from '@bahi/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, type FetchLike } from './api.ts';
import { buildApiPath, callEndpoint, createEndpointCaller, EndpointResponseError } from './endpoint.ts';

const RunSchema = z.object({ id: z.string(), status: z.enum(['queued', 'running']) });

const test = defineEndpoints({
  getRun: { method: 'GET', path: '/api/flows/:flowId/runs/:id', response: RunSchema },
  rename: {
    method: 'PUT',
    path: '/api/things/:id',
    body: z.object({ name: z.string() }),
    response: z.object({ ok: z.literal(true) }),
  },
  search: {
    method: 'GET',
    path: '/api/search',
    query: z.object({ q: z.string(), page: z.number() }),
    response: z.object({ items: z.array(z.string()) }),
  },
});

/** A stand-in `fetch` that records each request and answers `body` with `status`. */
function answering(body: unknown, status = 200) {
  const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetchImpl: FetchLike = async (url, init) => {
    seen.push({ url, init });
    return new Response(JSON.stringify(body), { status });
  };
  return { seen, fetchImpl };
}

describe('buildApiPath', () => {
  it('encodes each path param, so an id cannot reach another route', () => {
    expect(buildApiPath('/api/flows/:flowId/runs/:id', { flowId: 'a/b', id: '?x=1#y' })).toBe(
      '/api/flows/a%2Fb/runs/%3Fx%3D1%23y',
    );
    expect(buildApiPath('/api/flows/:id/sheet.xlsx', { id: 'f 1' })).toBe('/api/flows/f%201/sheet.xlsx');
  });

  it('appends the query in the order given and leaves out empty values', () => {
    expect(
      buildApiPath('/api/review', {}, { view: 'all', vendor: '', q: 'ACME & Co', page: 2, to: null }),
    ).toBe('/api/review?view=all&q=ACME+%26+Co&page=2');
    expect(buildApiPath('/api/review', {}, { q: undefined })).toBe('/api/review');
  });

  it('refuses a missing param instead of calling a shorter path', () => {
    expect(() => buildApiPath('/api/runs/:id', {} as { id: string })).toThrow(
      '/api/runs/:id: no value for :id',
    );
  });
});

describe('callEndpoint', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends method, encoded params and the JSON body, and answers with the body', async () => {
    const { seen, fetchImpl } = answering({ ok: true });
    const call = createEndpointCaller({ validate: true, fetchImpl });
    await expect(call(test.rename, { params: { id: 'x/y' }, body: { name: 'New' } })).resolves.toEqual({
      ok: true,
    });
    expect(seen[0]?.url).toBe('/api/things/x%2Fy');
    expect(seen[0]?.init?.method).toBe('PUT');
    expect(seen[0]?.init?.body).toBe('{"name":"New"}');
    expect(seen[0]?.init?.credentials).toBe('include');
  });

  it('sends a query and no body for a GET', async () => {
    const { seen, fetchImpl } = answering({ items: [] });
    await createEndpointCaller({ validate: true, fetchImpl })(test.search, { query: { q: 'gst', page: 3 } });
    expect(seen[0]?.url).toBe('/api/search?q=gst&page=3');
    expect(seen[0]?.init?.method).toBe('GET');
    expect(seen[0]?.init?.body).toBeUndefined();
  });

  it('fails in development with an error naming the endpoint when the answer breaks its contract', async () => {
    const { fetchImpl } = answering({ id: 'r1', status: 'exploded' });
    const call = createEndpointCaller({ validate: true, fetchImpl });
    const failure = call(test.getRun, { params: { flowId: 'f1', id: 'r1' } });
    await expect(failure).rejects.toBeInstanceOf(EndpointResponseError);
    await expect(call(test.getRun, { params: { flowId: 'f1', id: 'r1' } })).rejects.toThrow(
      /^getRun \(GET \/api\/flows\/:flowId\/runs\/:id\): the server's answer does not match its contract .* status: /,
    );
    const error = (await failure.catch((e: unknown) => e)) as EndpointResponseError;
    expect(error.endpoint).toBe('getRun');
    expect(error.issues.map((i) => i.path)).toEqual(['status']);
  });

  it('does not parse in production: the answer is handed on as sent', async () => {
    const { fetchImpl } = answering({ id: 'r1', status: 'exploded' });
    const call = createEndpointCaller({ validate: false, fetchImpl });
    await expect(call(test.getRun, { params: { flowId: 'f1', id: 'r1' } })).resolves.toEqual({
      id: 'r1',
      status: 'exploded',
    });
  });

  it('returns the answer as sent in development too, so both builds see the same object', async () => {
    const { fetchImpl } = answering({ id: 'r1', status: 'queued', extra: 'kept' });
    const run = await createEndpointCaller({ validate: true, fetchImpl })(test.getRun, {
      params: { flowId: 'f1', id: 'r1' },
    });
    expect(run).toEqual({ id: 'r1', status: 'queued', extra: 'kept' });
  });

  it('validates by default exactly when the build is a development build', async () => {
    const original = globalThis.fetch;
    globalThis.fetch = (async () => Response.json({ id: 'r1', status: 'exploded' })) as typeof fetch;
    try {
      vi.stubEnv('DEV', true);
      await expect(callEndpoint(test.getRun, { params: { flowId: 'f', id: 'r' } })).rejects.toBeInstanceOf(
        EndpointResponseError,
      );
      vi.stubEnv('DEV', false);
      await expect(callEndpoint(test.getRun, { params: { flowId: 'f', id: 'r' } })).resolves.toMatchObject({
        id: 'r1',
      });
    } finally {
      globalThis.fetch = original;
    }
  });

  it('asks at compile time for the params and the body the endpoint declares', async () => {
    const call = createEndpointCaller({ validate: false, fetchImpl: answering({ ok: true }).fetchImpl });
    // @ts-expect-error getRun needs its path params
    await expect(call(test.getRun)).rejects.toThrow('no value for :flowId');
    // @ts-expect-error rename's body is { name }
    await call(test.rename, { params: { id: 'x' }, body: { title: 'New' } });
    // @ts-expect-error search has no path params
    await call(test.search, { params: { id: 'x' } });
  });

  it('throws the API error of a non-2xx answer before any contract check', async () => {
    const { fetchImpl } = answering({ error: { code: 'run_in_progress', message: 'Already running' } }, 409);
    const failure = createEndpointCaller({ validate: true, fetchImpl })(test.getRun, {
      params: { flowId: 'f', id: 'r' },
    });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'run_in_progress', status: 409 });
  });
});
