import type { Role } from '@bahi/contracts';

// Who is calling: the identity every service is handed (by the routes, from the session the HTTP layer
// loaded). Plain data, so modules take it without knowing HTTP.

/** The signed-in user as loaded from the session. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
}

/** Roles a member can hold in an organisation (the permissions table is `ROLE_PERMISSIONS`, @bahi/contracts). */
export type MembershipRole = Role;

/** The caller's membership: which organisation every query is scoped to. */
export interface Membership {
  organizationId: string;
  role: MembershipRole;
}
