import { describe, expect, it } from 'vitest';
import { ApiError, requestApi, toApiError } from './api.ts';

describe('toApiError', () => {
  it('reads code, message and fields from the error envelope', () => {
    const error = toApiError(400, {
      error: { code: 'validation', message: 'Invalid', fields: { orgName: 'Organization name is required' } },
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('validation');
    expect(error.message).toBe('Invalid');
    expect(error.status).toBe(400);
    expect(error.fields.orgName).toBe('Organization name is required');
  });

  it("keeps the message but not a code outside the contract's union", () => {
    const error = toApiError(409, { error: { code: 'organization_exists', message: 'Already set up' } });
    expect(error.code).toBe('http_409');
    expect(error.message).toBe('Already set up');
  });

  it('falls back to the status when the body is not an error envelope', () => {
    const error = toApiError(502, '<html>Bad gateway</html>');
    expect(error.code).toBe('http_502');
    expect(error.fields).toEqual({});
  });
});

describe('requestApi', () => {
  it('sends JSON with the session cookie and parses the answer', async () => {
    let seen: RequestInit | undefined;
    const result = await requestApi<{ ok: boolean }>(
      '/api/x',
      { method: 'PUT', body: { a: 1 } },
      async (_, init) => {
        seen = init;
        return new Response(JSON.stringify({ ok: true }), { status: 200 });
      },
    );
    expect(result).toEqual({ ok: true });
    expect(seen?.credentials).toBe('include');
    expect(seen?.method).toBe('PUT');
    expect(seen?.body).toBe('{"a":1}');
    expect((seen?.headers as Record<string, string> | undefined)?.['content-type']).toBe('application/json');
  });

  it('throws ApiError with the server code on non-2xx', async () => {
    const call = requestApi('/api/organization', {}, async () =>
      Response.json({ error: { code: 'no_organization', message: 'No organisation' } }, { status: 404 }),
    );
    await expect(call).rejects.toMatchObject({ code: 'no_organization', status: 404 });
  });

  it('turns a network failure into ApiError code network', async () => {
    const call = requestApi('/api/me', {}, async () => {
      throw new TypeError('fetch failed');
    });
    await expect(call).rejects.toMatchObject({ code: 'network', status: 0 });
  });
});
