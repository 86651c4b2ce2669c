import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person who can sign in at the test identity provider. */
export interface OidcTestAccount {
  /** Subject (`sub`) the provider issues; defaults to the e-mail. */
  sub?: string;
  email: string;
  password: string;
  name: string;
}

/** The one relying party (Bahi) registered at the provider. */
export interface OidcTestClient {
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs allowed, e.g. `http://localhost:4000/api/auth/callback/oidc`. */
  redirectUris: string[];
}

/** Options for `startOidcProvider`. */
export interface StartOidcProviderOptions {
  clients: OidcTestClient[];
  accounts: OidcTestAccount[];
}

/** A running identity provider on loopback. */
export interface RunningOidcProvider {
  /** `http://127.0.0.1:<port>`. */
  issuer: string;
  /** `<issuer>/.well-known/openid-configuration`, what the app's *_DISCOVERY_URL points at. */
  discoveryUrl: string;
  /** Successful and failed logins at the provider's form, in order, for assertions. */
  logins: Array<{ email: string; ok: boolean }>;
  close(): Promise<void>;
}

/** Reads an `application/x-www-form-urlencoded` request body. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Escapes text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain page: no scripts, no external resources (the browser guard refuses non-loopback hosts anyway). */
function renderPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:15px system-ui,sans-serif;max-width:22rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function renderLogin(uid: string, clientId: string, error?: string, email = ''): string {
  return renderPage(
    'Test IdP sign-in',
    `<p>Sign in to continue to <strong>${escapeHtml(clientId)}</strong>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<label for="email">Email</label><input id="email" name="email" type="email" value="${escapeHtml(email)}" required>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

function renderConsent(uid: string, clientId: string, scopes: string[]): string {
  return renderPage(
    'Test IdP consent',
    `<p><strong>${escapeHtml(clientId)}</strong> asks for: ${escapeHtml(scopes.join(', ') || 'openid')}.</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm">
<button type="submit">Allow</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort">
<button type="submit">Deny</button>
</form>`,
  );
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/**
 * Starts a real OpenID Connect provider (panva's `oidc-provider`) on 127.0.0.1 with a random port:
 * authorization code + PKCE, signed ID tokens (a fresh RSA key), userinfo with `email`, `email_verified`
 * and `name`, and interactions rendered as a minimal HTML login form followed by a consent form, both of
 * which the browser under test fills in. Wrong passwords re-render the form with an error.
 */
export async function startOidcProvider(options: StartOidcProviderOptions): Promise<RunningOidcProvider> {
  const accounts = new Map(options.accounts.map((a) => [a.sub ?? a.email, a]));
  const logins: RunningOidcProvider['logins'] = [];

  // The port must be known before the Provider exists, because the issuer URL contains it.
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      // better-auth's generic OAuth sends the secret in the body unless told otherwise.
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    // Explicit lifetimes (seconds) for every artifact, long enough for a test and silencing the notices.
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: true, name: account.name }),
      };
    },
  });
  const callback = provider.callback();

  async function handleInteraction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const [, , uid = '', action] = path.split('/');
    const details = await provider.interactionDetails(req, res);
    const clientId = String(details.params.client_id ?? '');
    if (details.uid !== uid) throw new Error('interaction uid mismatch');

    if (req.method === 'GET') {
      if (details.prompt.name === 'login') return sendHtml(res, 200, renderLogin(uid, clientId));
      const scopes = String(details.params.scope ?? '').split(' ');
      return sendHtml(res, 200, renderConsent(uid, clientId, scopes));
    }

    if (action === 'login') {
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const match = [...accounts.entries()].find(([, a]) => a.email.toLowerCase() === email);
      const ok = Boolean(match && match[1].password === form.get('password'));
      logins.push({ email, ok });
      if (!match || !ok)
        return sendHtml(res, 200, renderLogin(uid, clientId, 'Wrong email or password', email));
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: match[0] } },
        { mergeWithLastSubmission: false },
      );
      return;
    }

    if (action === 'confirm') {
      const accountId = details.session?.accountId;
      if (!accountId) throw new Error('consent without a signed-in account');
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId });
      if (!grant) throw new Error('grant not found');
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }

    if (action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user denied access' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    sendHtml(res, 404, renderPage('Not found', '<p>Unknown interaction step.</p>'));
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path.startsWith('/interaction/')) {
      handleInteraction(req, res, path).catch((error: unknown) => {
        if (!res.headersSent) sendHtml(res, 500, renderPage('Error', `<p>${escapeHtml(String(error))}</p>`));
        else res.end();
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
