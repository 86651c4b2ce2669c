import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, apiLinks } from './endpoints.ts';

describe('the endpoint catalogue', () => {
  const endpoints = Object.entries(api);

  it('names each endpoint after its key and gives it contract schemas', () => {
    for (const [key, endpoint] of endpoints) {
      expect(endpoint.name).toBe(key);
      expect(endpoint.path).toMatch(/^\/api\//);
      expect(endpoint.response).toBeInstanceOf(z.ZodType);
      if ('body' in endpoint) expect(endpoint.body).toBeInstanceOf(z.ZodType);
    }
  });

  it('declares each method and path once', () => {
    const routes = endpoints.map(([, e]) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('starts runs through the runs endpoint, never the legacy process-folder call', () => {
    expect(api.startRun).toMatchObject({ method: 'POST', path: '/api/flows/:id/runs' });
    const paths = [...endpoints.map(([, e]) => e.path), ...Object.values(apiLinks)];
    expect(paths.filter((path) => /process-(folder|url)/.test(path))).toEqual([]);
  });
});
