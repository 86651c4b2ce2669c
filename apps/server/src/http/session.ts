import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from '../modules/auth/auth.ts';
import type { Membership, SessionUser } from '../modules/auth/identity.ts';
import { findMembership } from '../modules/organizations/organizations.service.ts';
import type { AppEnv } from './context.ts';

/**
 * Loads the session from the better-auth cookie and, when signed in, the caller's membership. Routes
 * then call `requireUser` / `requireMembership`; nothing trusts a user id sent by the client.
 */
export function createSessionMiddleware(auth: Auth, db: Db): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = await auth.api.getSession({ headers: c.req.raw.headers });
    if (session) {
      const { id, name, email, image } = session.user;
      c.set('user', { id, name, email, image: image ?? null });
      c.set('sessionId', session.session.id);
      // Read on every request (never cached in the cookie), so a removed member is refused at once.
      c.set('membership', await findMembership(db, id, session.session.id));
    } else {
      c.set('user', null);
      c.set('membership', null);
      c.set('sessionId', null);
    }
    await next();
  };
}

/** The signed-in user, or a 401 `unauthenticated` error. */
export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user');
  if (!user) throw new AppError('unauthenticated', 'Please sign in');
  return user;
}

/** The signed-in user and their membership; `no_organization` before onboarding. */
export function requireMembership(c: Context<AppEnv>): { user: SessionUser; membership: Membership } {
  const user = requireUser(c);
  const membership = c.get('membership');
  if (!membership) throw new AppError('no_organization', 'Set up your organization first');
  return { user, membership };
}
