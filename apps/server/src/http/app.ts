import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { hasUnsafeCharacters, UNSAFE_TEXT_MESSAGE } from '@bahi/contracts';
import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { AppError } from '../lib/app-error.ts';
import { createActivityRoutes } from '../modules/activity/activity.routes.ts';
import { createAuditRoutes } from '../modules/audit/audit.routes.ts';
import { createPopupRoutes, withClientIp } from '../modules/auth/auth.routes.ts';
import { AUTH_BASE_PATH, COOKIE_PREFIX } from '../modules/auth/auth.ts';
import { createClientIpResolver } from '../modules/auth/client-ip.ts';
import { createAuthConfigRoutes } from '../modules/auth-config/auth-config.routes.ts';
import { createBooksRoutes } from '../modules/books/books.routes.ts';
import { createDashboardRoutes } from '../modules/dashboard/dashboard.routes.ts';
import { createDocumentRoutes } from '../modules/documents/documents.routes.ts';
import { createFlowRoutes } from '../modules/flows/flows.routes.ts';
import { createGoogleRoutes } from '../modules/google/google.routes.ts';
import { createGstRoutes } from '../modules/gst/gst.routes.ts';
import { createMailOAuthRoutes } from '../modules/intake/mail-oauth.routes.ts';
import { createIntegrationRoutes } from '../modules/integrations/integrations.routes.ts';
import { createInterestRoutes } from '../modules/interest/interest.routes.ts';
import { createLegacyRoutes } from '../modules/legacy/legacy.routes.ts';
import { createMemoryRoutes } from '../modules/memory/memory.routes.ts';
import { createMsmeRoutes } from '../modules/msme/msme.routes.ts';
import { createNotificationRoutes } from '../modules/notifications/notifications.routes.ts';
import { createOpsRoutes } from '../modules/ops/ops.routes.ts';
import { createOrganizationRoutes } from '../modules/organizations/organizations.routes.ts';
import { createReconcileRoutes } from '../modules/reconcile/reconcile.routes.ts';
import { createReviewRoutes } from '../modules/review/review.routes.ts';
import { createRunRoutes } from '../modules/runs/runs.routes.ts';
import { createSheetRoutes } from '../modules/sheets/sheets.routes.ts';
import { createTeamRoutes } from '../modules/team/team.routes.ts';
import { createUploadRoutes } from '../modules/uploads/uploads.routes.ts';
import { createVendorOnboardingRoutes } from '../modules/vendor-onboarding/vendor-onboarding.routes.ts';
import { createVendorRoutes } from '../modules/vendors/vendors.routes.ts';
import type { AppDeps, AppEnv } from './context.ts';
import { createErrorHandler, toErrorResponse } from './error-handler.ts';
import { createPermissionGuard } from './permissions.ts';
import { createSessionMiddleware } from './session.ts';

/** Feature modules mounted under /api. Add new modules here (flows, runs, google, ...). */
const apiModules = [
  createAuthConfigRoutes,
  createOrganizationRoutes,
  createDashboardRoutes,
  createActivityRoutes,
  createNotificationRoutes,
  createInterestRoutes,
  createIntegrationRoutes,
  createFlowRoutes,
  createLegacyRoutes,
  createRunRoutes,
  createDocumentRoutes,
  createMemoryRoutes,
  createReviewRoutes,
  createReconcileRoutes,
  createGstRoutes,
  createBooksRoutes,
  createMsmeRoutes,
  createVendorRoutes,
  createVendorOnboardingRoutes,
  createUploadRoutes,
  createSheetRoutes,
  createGoogleRoutes,
  createMailOAuthRoutes,
  createTeamRoutes,
  createAuditRoutes,
];

/** Options beyond the shared dependencies. */
export interface CreateAppOptions {
  /** Built web app to serve (apps/web/dist); when missing, non-API paths get a hint page. */
  webDist?: string | undefined;
  /** Version shown in the OpenAPI document. */
  version?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses mutating /api requests a browser sent from a foreign page. hono/csrf only looks at form-like
 * bodies; this also covers JSON, using the Origin header (and Sec-Fetch-Site when there is no Origin).
 * Requests without either (curl, server-to-server) carry no ambient browser credentials to abuse.
 */
function createOriginGuard(allowedOrigins: string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      const foreign = origin
        ? !allowedOrigins.includes(origin)
        : site === 'cross-site' || site === 'same-site';
      if (foreign) throw new AppError('forbidden', 'Request refused: it came from another site');
    }
    await next();
  };
}

/** The largest request body a JSON route reads: a flow or a profile is a few kilobytes. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one place anonymous callers send bodies: a vendor filling in the onboarding form its link opens
 * (the token in the path is the credential; the routes bound and rate-limit what they read).
 */
const PUBLIC_BODY_PATH = /^\/api\/vendor-form\/[^/]+(?:\/documents\/[^/]+|\/invoices)?$/;

/**
 * Every /api route that takes a body needs a session (sign-in and sign-up live under /api/auth,
 * answered before this): a request without one is refused before a byte of its body is read, so
 * an anonymous caller cannot make the server parse or buffer anything.
 */
const refuseAnonymousBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (BODY_METHODS.has(c.req.method) && !c.get('user') && !PUBLIC_BODY_PATH.test(c.req.path)) {
    // The unread body still stands on the connection: close it after the answer, so the client
    // does not send its next request after it.
    c.header('connection', 'close');
    throw new AppError('unauthenticated', 'Please sign in');
  }
  await next();
};

/**
 * JSON (and any body that is not a multipart upload) is capped at {@link JSON_BODY_LIMIT_BYTES},
 * counted as it streams in; uploads have their own per-route limit.
 */
const jsonLimit = bodyLimit({
  maxSize: JSON_BODY_LIMIT_BYTES,
  onError: (c) => {
    c.header('connection', 'close');
    throw new AppError('payload_too_large', 'The request is too large');
  },
});
const limitJsonBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!BODY_METHODS.has(c.req.method) || c.req.header('content-type')?.startsWith('multipart/form-data'))
    return next();
  return jsonLimit(c, next);
};

/** The largest body better-auth reads (sign-in, sign-up, sign-out): a few hundred bytes in practice. */
export const AUTH_BODY_LIMIT_BYTES = 64 * 1024;

const authLimit = bodyLimit({
  maxSize: AUTH_BODY_LIMIT_BYTES,
  onError: (c) => {
    c.header('connection', 'close');
    throw new AppError('payload_too_large', 'The request is too large');
  },
});

/** The dotted path of the first string in `value` holding a character PostgreSQL cannot store. */
function findUnsafeText(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return hasUnsafeCharacters(value) ? path.join('.') || 'body' : null;
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasUnsafeCharacters(key)) return [...path, 'key'].join('.');
      const found = findUnsafeText(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * better-auth's routes (/api/auth/*) are answered before the session gate and the JSON limit, so they get
 * their own: a body past {@link AUTH_BODY_LIMIT_BYTES} is refused (413) before it is read — at once when
 * its Content-Length says so, else as soon as the count passes it. A JSON body is then checked for text
 * PostgreSQL cannot store (a NUL in a name), refused with a field message instead of a database error.
 */
const limitAuthBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!BODY_METHODS.has(c.req.method)) return next();
  return authLimit(c, async () => {
    if (c.req.header('content-type')?.includes('json')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await c.req.raw.clone().text());
      } catch {
        parsed = undefined;
      }
      const field = findUnsafeText(parsed);
      if (field !== null)
        throw new AppError('validation', UNSAFE_TEXT_MESSAGE, { [field]: UNSAFE_TEXT_MESSAGE });
    }
    await next();
  });
};

/** The path with the token of a vendor form link replaced, for the logs. */
export function redactTokens(path: string): string {
  return path.replace(/^(\/(?:api\/)?vendor-form\/)[^/]+/, '$1[token]');
}

/** Outside /api no route reads a body; one sent anyway is still bounded. */
const limitOtherBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.path.startsWith('/api/') || !BODY_METHODS.has(c.req.method)) return next();
  return jsonLimit(c, next);
};

/**
 * Builds the whole HTTP app: security headers, CSRF protection, better-auth at /api/auth, session
 * loading, feature modules under /api, the OpenAPI document, popup sign-in pages, /healthz and the web app
 * with SPA fallback.
 */
export function createApp(deps: AppDeps, options: CreateAppOptions = {}): OpenAPIHono<AppEnv> {
  const { env, auth, db, logger } = deps;
  const allowedOrigins = [new URL(env.publicUrl).origin, ...env.trustedOrigins];
  const getClientIp = createClientIpResolver(env.trustProxy);
  const app = new OpenAPIHono<AppEnv>();

  answerErrors(app, logger);
  setSecurityHeaders(app, env);
  logRequests(app, logger);

  // /healthz, /readyz, /metrics (modules/ops): no session, before CSRF and the SPA fallback.
  // Dispatched per path rather than mounted at '/': the ops router's `use('*')` (no-store) would
  // otherwise apply to every response of the app, including immutable web assets.
  const ops = createOpsRoutes({ db, logger, metricsToken: env.metricsToken });
  app.get('/healthz', (c) => ops.fetch(c.req.raw, c.env));
  app.get('/readyz', (c) => ops.fetch(c.req.raw, c.env));
  app.get('/metrics', (c) => ops.fetch(c.req.raw, c.env));

  app.use('*', limitOtherBodies);
  app.use('/api/*', csrf({ origin: allowedOrigins }));
  app.use('/api/*', createOriginGuard(allowedOrigins));
  app.use(`${AUTH_BASE_PATH}/*`, limitAuthBodies);
  app.on(['GET', 'POST'], `${AUTH_BASE_PATH}/*`, (c) =>
    auth.handler(withClientIp(c.req.raw, getClientIp(c))),
  );

  describeApi(app, options.version);

  app.use('/api/*', createSessionMiddleware(auth, db));
  app.use('/api/*', refuseAnonymousBodies);
  // Who may call what: every /api route is classified in ROUTE_RULES and checked against the role here.
  app.use('/api/*', createPermissionGuard());
  app.use('/api/*', limitJsonBodies);
  for (const createRoutes of apiModules) app.route('/api', createRoutes(deps));

  app.route('/', createPopupRoutes(deps, getClientIp));
  mountWeb(app, options.webDist);
  return app;
}

/** Errors as `{ error: { code, message } }` under /api, a plain 404 elsewhere. */
function answerErrors(app: OpenAPIHono<AppEnv>, logger: AppDeps['logger']): void {
  app.onError(createErrorHandler(logger));
  app.notFound((c) => {
    if (c.req.path.startsWith('/api/')) {
      const { status, body } = toErrorResponse(
        new AppError('not_found', `No API route ${c.req.method} ${c.req.path}`),
      );
      return c.json(body, status);
    }
    return c.text('Not found', 404);
  });
}

/**
 * Security headers on every answer (a strict CSP, HSTS behind https), no caching of API answers, and
 * the popup sign-in's pages kept linked to the window that opened them.
 */
function setSecurityHeaders(app: OpenAPIHono<AppEnv>, env: AppDeps['env']): void {
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
      },
      // The sign-in popup must keep `window.opener` through the identity provider's pages.
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: env.publicUrl.startsWith('https://')
        ? 'max-age=15552000; includeSubDomains'
        : false,
      // Handlers that need a different policy (the popup pages) set their own header.
      overwrite: false,
      // The CSP's frame-ancestors 'none' says it; a SAMEORIGIN header beside it contradicts it.
      xFrameOptions: false,
    }),
  );
  // API answers are one user's data at one moment: no browser or proxy keeps a copy. A handler
  // that sets its own policy (a file download) keeps it.
  app.use('/api/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
  });
  // The popup's pages and the OAuth callback redirect must not sever the link to the opener window.
  const allowOpener: MiddlewareHandler<AppEnv> = async (c, next) => {
    await next();
    c.res.headers.set('cross-origin-opener-policy', 'unsafe-none');
  };
  app.use('/auth/*', allowOpener);
  app.use(`${AUTH_BASE_PATH}/callback/*`, allowOpener);
}

/** A request id on every request and one log line per API or auth request. */
function logRequests(app: OpenAPIHono<AppEnv>, logger: AppDeps['logger']): void {
  // An id per request (the caller's X-Request-Id if it sent one), echoed back and logged, to join log lines.
  app.use('*', requestId());
  // One line per API/auth request for operators; static files only at debug level.
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // A vendor form's token is a credential: the log says the route, never the token.
    const path = redactTokens(c.req.path);
    const level = path.startsWith('/api/') || path.startsWith('/auth/') ? 'info' : 'debug';
    logger[level](
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
}

/** The OpenAPI document at /api/openapi.json, with the session cookie as its security scheme. */
function describeApi(app: OpenAPIHono<AppEnv>, version: string | undefined): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: `${COOKIE_PREFIX}.session_token`,
    description: 'better-auth session cookie, set by /api/auth/sign-in/* and /api/auth/sign-up/*',
  });
  app.doc31('/api/openapi.json', {
    security: [{ session: [] }],
    openapi: '3.1.0',
    info: {
      title: 'Bahi API',
      version: version ?? '0.1.0',
      description:
        'Session-cookie authenticated JSON API of Bahi. Authentication endpoints (better-auth) live under /api/auth.',
    },
  });
}

/** Serves the built SPA: real files first, then index.html for any other non-API GET. */
function mountWeb(app: OpenAPIHono<AppEnv>, webDist: string | undefined): void {
  const indexFile = webDist ? join(webDist, 'index.html') : undefined;
  if (!webDist || !indexFile || !existsSync(indexFile)) {
    app.get('*', (c) =>
      c.req.path.startsWith('/api/')
        ? c.notFound()
        : c.html(
            '<!doctype html><title>Bahi</title><p>The web app is not built. Run <code>npm start</code> (or ' +
              '<code>npm run build -w @bahi/web</code>) from the repository root.</p>',
            503,
          ),
    );
    return;
  }
  // serveStatic resolves `root` against the working directory.
  const root = relative(process.cwd(), webDist) || '.';
  // Vite's assets have content hashes in their names: cache them for good.
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set('cache-control', 'public, max-age=31536000, immutable');
  });
  const staticFiles = serveStatic({ root });
  app.use('*', async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next();
    return staticFiles(c, next);
  });
  app.get('*', async (c) => {
    // A missing file (old hashed asset, typo) is a 404, not the app shell: only routes get index.html.
    if (c.req.path.startsWith('/api/') || /\.[a-z0-9]+$/i.test(c.req.path)) return c.notFound();
    c.header('cache-control', 'no-cache');
    return c.html(await readFile(indexFile, 'utf8'));
  });
}
