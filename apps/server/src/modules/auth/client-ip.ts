import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * How the server decides who the client is (for per-IP rate limits). Directly exposed, that is the
 * socket's peer address. Behind a reverse proxy (TRUST_PROXY=true) every socket is the proxy, so the
 * client is the last X-Forwarded-For entry — the one the proxy itself appended; earlier entries are
 * client-supplied and could be forged.
 */
export function createClientIpResolver(trustProxy: boolean): (c: Context) => string | undefined {
  return (c) => {
    if (trustProxy) {
      const forwarded = c.req.header('x-forwarded-for');
      const last = forwarded
        ?.split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1);
      if (last) return last;
    }
    try {
      return getConnInfo(c).remote.address;
    } catch {
      // Not running under @hono/node-server (e.g. app.request() in a unit test): no socket to ask.
      return undefined;
    }
  };
}
