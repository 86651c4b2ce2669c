import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createClientIpResolver } from './client-ip.ts';

/** Asks a resolver who sent a request with these headers. */
async function resolveIp(trustProxy: boolean, headers: Record<string, string>): Promise<string> {
  const app = new Hono();
  const resolve = createClientIpResolver(trustProxy);
  app.get('/', (c) => c.text(resolve(c) ?? 'unknown'));
  return (await app.request('/', { headers })).text();
}

describe('createClientIpResolver', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is on', async () => {
    expect(await resolveIp(false, { 'x-forwarded-for': '203.0.113.9' })).toBe('unknown');
  });

  it('behind a proxy, uses the entry the proxy appended, not the client-supplied ones', async () => {
    expect(await resolveIp(true, { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' })).toBe('203.0.113.9');
    expect(await resolveIp(true, {})).toBe('unknown');
  });
});
