import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { type Env, listIdentityProviders } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { accounts, rateLimits, sessions, users, verifications } from '../../db/schema/index.ts';
import type { Logger } from '../../lib/logger.ts';
import {
  accountWaitMs,
  clearSignInFailures,
  recordExistingAddressAnswer,
  recordSignInFailure,
  signUpWaitMs,
} from './account-throttle.ts';
import { describeWeakPassword } from './password-strength.ts';

/** Header the server sets from the socket address (overwriting any client value) for rate limiting. */
export const CLIENT_IP_HEADER = 'x-bahi-client-ip';

/** Prefix of every auth cookie (`bahi.session_token`, ...). */
export const COOKIE_PREFIX = 'bahi';

/** Where better-auth is mounted. */
export const AUTH_BASE_PATH = '/api/auth';

/** Sign-in attempts allowed per client IP per minute. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 5;

/** A wait in whole minutes, at least one, as a person reads it ("1 minute", "4 minutes"). */
function inMinutes(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A session better-auth just created (a sign-in or a sign-up), as the audit trail records it. */
export interface NewSession {
  id: string;
  userId: string;
  ipAddress?: string | null | undefined;
  userAgent?: string | null | undefined;
}

interface CreateAuthOptions {
  env: Env;
  db: Db;
  secret: string;
  logger: Logger;
  /** Called after every new session (the composition root records it in the audit trail). */
  onSignIn?: (session: NewSession) => Promise<void>;
}

/**
 * Configures better-auth: e-mail/password accounts (unless LOCAL_ACCOUNTS=false), Google and any OIDC
 * provider through genericOAuth discovery, database-backed rate limiting (shared by all processes and on
 * in every environment), and httpOnly SameSite=Lax cookies under the `bahi` prefix.
 */
export function createAuth({ env, db, secret, logger, onSignIn }: CreateAuthOptions) {
  const providers = listIdentityProviders(env);
  const publicOrigin = new URL(env.publicUrl).origin;
  return betterAuth({
    appName: 'Bahi',
    baseURL: env.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: rateLimits,
      },
    }),
    trustedOrigins: [publicOrigin, ...env.trustedOrigins],
    databaseHooks: {
      session: {
        create: {
          // A sign-in is audited, but a failed audit write never stops someone signing in.
          after: async (session) => {
            await onSignIn?.(session).catch((error: unknown) =>
              logger.warn({ err: error }, 'could not record a sign-in in the audit trail'),
            );
          },
        },
      },
    },
    emailAndPassword: {
      enabled: env.localAccounts,
      disableSignUp: !env.localAccounts,
      minPasswordLength: 8,
      autoSignIn: true,
    },
    hooks: {
      // Every way a password is chosen (sign-up, change, reset) passes the same strength check; failed
      // sign-ins are counted per account as well as per address.
      before: guardPasswordsAndPauses(db),
      after: countSignInFailures(db),
    },
    account: {
      // A person who signed up with e-mail may later sign in with an identity provider for the same
      // address. Google always verifies addresses, so it is trusted outright; other OIDC providers link
      // only when they assert email_verified (better-auth's default), or anyone who can register that
      // address at a lax provider could take over the account.
      accountLinking: { enabled: true, trustedProviders: env.google ? [env.google.id] : [] },
      // Identity providers' access, refresh and ID tokens are stored encrypted with the auth secret,
      // as the Drive/Sheets tokens are: a copy of the database gives no one a working Google token.
      encryptOAuthTokens: true,
    },
    plugins:
      providers.length > 0
        ? [
            genericOAuth({
              config: providers.map((p) => ({
                providerId: p.id,
                name: p.name,
                discoveryUrl: p.discoveryUrl,
                clientId: p.clientId,
                clientSecret: p.clientSecret,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
              })),
            }),
          ]
        : [],
    rateLimit: {
      // better-auth only rate-limits in production by default; the security floor wants it everywhere.
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: SIGN_IN_ATTEMPTS_PER_MINUTE },
        '/sign-up/email': { window: 60, max: 10 },
        '/sign-in/social': { window: 60, max: 20 },
      },
    },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    telemetry: { enabled: false },
    logger: {
      level: env.logLevel === 'debug' || env.logLevel === 'trace' ? 'debug' : 'warn',
      log: (level, message, ...args) => {
        logger[level]({ component: 'better-auth', args: args.length ? args : undefined }, message);
      },
    },
  });
}

/** The configured better-auth instance. */
export type Auth = ReturnType<typeof createAuth>;

/**
 * Before every auth call: an account or sign-up that keeps failing waits, and every way a password is
 * chosen (sign-up, change, reset) passes the same strength check.
 */
function guardPasswordsAndPauses(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as {
      password?: unknown;
      newPassword?: unknown;
      email?: unknown;
      name?: unknown;
    };
    // An account that keeps failing waits, whichever addresses the attempts come from.
    if (ctx.path === '/sign-in/email' && typeof body.email === 'string') {
      const wait = await accountWaitMs(db, body.email);
      if (wait > 0)
        throw new APIError('TOO_MANY_REQUESTS', {
          code: 'ACCOUNT_SIGN_IN_PAUSED',
          message: `Too many wrong passwords for this account. Try again in ${inMinutes(wait)}, or reset the password.`,
        });
    }
    if (ctx.path === '/sign-up/email') {
      const wait = await signUpWaitMs(db);
      if (wait > 0)
        throw new APIError('TOO_MANY_REQUESTS', {
          code: 'SIGN_UP_PAUSED',
          message: `Sign-up is busy. Try again in ${inMinutes(wait)}.`,
        });
    }
    const chosen =
      ctx.path === '/sign-up/email'
        ? body.password
        : ctx.path === '/change-password' || ctx.path === '/reset-password'
          ? body.newPassword
          : undefined;
    if (typeof chosen !== 'string') return;
    const weak = describeWeakPassword(chosen, [
      typeof body.email === 'string' ? body.email : undefined,
      typeof body.name === 'string' ? body.name : undefined,
    ]);
    if (weak) throw new APIError('BAD_REQUEST', { code: 'PASSWORD_TOO_WEAK', message: weak });
  });
}

/** After a sign-in: failures are counted per account (and a success clears them); a sign-up for a taken address is counted too. */
function countSignInFailures(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    const returnedError = ctx.context.returned instanceof APIError ? ctx.context.returned : null;
    if (ctx.path === '/sign-up/email' && returnedError?.body?.code?.startsWith('USER_ALREADY_EXISTS'))
      await recordExistingAddressAnswer(db);
    if (ctx.path !== '/sign-in/email') return;
    const email = (ctx.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string') return;
    const returned = ctx.context.returned;
    if (returned instanceof APIError) {
      if (returned.statusCode === 401) await recordSignInFailure(db, email);
    } else if (returned) await clearSignInFailures(db, email);
  });
}
