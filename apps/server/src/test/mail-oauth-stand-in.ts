import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';

// A loopback stand-in of a mail provider's OAuth2 endpoints (Google's and Microsoft's share the shape):
// the authorisation page (consents at once and redirects back with a code), the token endpoint
// (authorization_code and refresh_token grants; `invalid_grant` once a refresh token is revoked) and a
// token-introspection endpoint (RFC 7662) that the test Dovecot asks whether an IMAP login's bearer token
// is live. Tokens are real state: issued, expiring and revocable.

/** A running stand-in. */
export interface MailOAuthStandIn {
  url: string;
  /** The mailbox user every token is for (the introspection answer's `email`). */
  user: string;
  /** Every request seen, as `METHOD /path grant_type-or-token-kind`. */
  log: string[];
  /** Live refresh tokens. */
  refreshTokens: Set<string>;
  /** Revokes every refresh token and access token (the user removed Bahi's access). */
  revokeAll(): void;
  /** Expires every access token issued so far (as time passing would). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

/** Starts the stand-in on a random loopback port; tokens are issued for `user`. */
export async function startMailOAuthStandIn(
  user: string,
  accessTtlSeconds = 3600,
): Promise<MailOAuthStandIn> {
  const codes = new Map<string, string>(); // code → redirect_uri
  const access = new Map<string, number>(); // token → expires at (ms)
  const refreshTokens = new Set<string>();
  const log: string[] = [];
  const issue = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && /\/(authorize|auth)$/.test(url.pathname)) {
      log.push(`GET authorize ${url.searchParams.get('scope')}`);
      const code = issue('code');
      const back = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, back);
      const to = new URL(back);
      to.searchParams.set('code', code);
      to.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: to.toString() });
      res.end();
      return;
    }
    const form = await readForm(req);
    if (req.method === 'POST' && url.pathname.endsWith('/token')) {
      const grant = form.get('grant_type');
      log.push(`POST token ${grant}`);
      if (!form.get('client_id') || !form.get('client_secret')) return json(401, { error: 'invalid_client' });
      if (grant === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (!codes.has(code) || codes.get(code) !== form.get('redirect_uri'))
          return json(400, { error: 'invalid_grant' });
        codes.delete(code);
        const refresh = issue('refresh');
        refreshTokens.add(refresh);
        const token = issue('access');
        access.set(token, Date.now() + accessTtlSeconds * 1000);
        return json(200, {
          access_token: token,
          refresh_token: refresh,
          expires_in: accessTtlSeconds,
          token_type: 'Bearer',
        });
      }
      if (grant === 'refresh_token') {
        if (!refreshTokens.has(form.get('refresh_token') ?? '')) return json(400, { error: 'invalid_grant' });
        const token = issue('access');
        access.set(token, Date.now() + accessTtlSeconds * 1000);
        return json(200, { access_token: token, expires_in: accessTtlSeconds, token_type: 'Bearer' });
      }
      return json(400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'POST' && url.pathname.endsWith('/introspect')) {
      const token = form.get('token') ?? '';
      const live = (access.get(token) ?? 0) > Date.now();
      log.push(`POST introspect ${live ? 'live' : 'dead'}`);
      return json(200, live ? { active: true, email: user } : { active: false });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    user,
    log,
    refreshTokens,
    revokeAll() {
      refreshTokens.clear();
      access.clear();
    },
    expireAccessTokens() {
      for (const token of access.keys()) access.set(token, 0);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
