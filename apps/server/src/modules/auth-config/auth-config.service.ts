import type { AuthConfig } from '@bahi/contracts';
import { type Env, listIdentityProviders } from '../../config/env.ts';

/** Which sign-in options the sign-in page should show. */
export function getAuthConfig(env: Env): AuthConfig {
  return {
    localAccounts: env.localAccounts,
    providers: listIdentityProviders(env).map((p) => ({ id: p.id, name: p.name })),
  };
}
