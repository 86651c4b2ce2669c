import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOAuthTokens } from '../../db/schema/index.ts';

/** A mailbox's stored OAuth2 tokens. */
export type MailOAuthRow = typeof mailOAuthTokens.$inferSelect;

/** The flow's mailbox tokens, scoped to its organisation. */
export async function findMailOAuth(
  db: Db,
  scope: { organizationId: string; flowId: string },
): Promise<MailOAuthRow | undefined> {
  const [row] = await db
    .select()
    .from(mailOAuthTokens)
    .where(
      and(eq(mailOAuthTokens.organizationId, scope.organizationId), eq(mailOAuthTokens.flowId, scope.flowId)),
    );
  return row;
}

/** Stores a (re)connected mailbox's tokens, clearing any earlier error. */
export async function saveMailOAuth(
  db: Db,
  values: Omit<MailOAuthRow, 'updatedAt' | 'error'>,
): Promise<void> {
  const set = { ...values, error: null, updatedAt: new Date() };
  await db.insert(mailOAuthTokens).values(set).onConflictDoUpdate({ target: mailOAuthTokens.flowId, set });
}

/** Stores a refreshed access token (and a rotated refresh token when the provider sent one). */
export async function saveRefreshedAccessToken(
  db: Db,
  scope: { organizationId: string; flowId: string },
  values: { accessTokenEnc: string; accessTokenExpiresAt: Date; refreshTokenEnc?: string | undefined },
): Promise<void> {
  await db
    .update(mailOAuthTokens)
    .set({ ...values, error: null, updatedAt: new Date() })
    .where(
      and(eq(mailOAuthTokens.organizationId, scope.organizationId), eq(mailOAuthTokens.flowId, scope.flowId)),
    );
}

/** Records that the refresh token no longer works (the mailbox must be reconnected). */
export async function markMailOAuthBroken(
  db: Db,
  scope: { organizationId: string; flowId: string },
  error: string,
): Promise<void> {
  await db
    .update(mailOAuthTokens)
    .set({ error, accessTokenEnc: null, accessTokenExpiresAt: null, updatedAt: new Date() })
    .where(
      and(eq(mailOAuthTokens.organizationId, scope.organizationId), eq(mailOAuthTokens.flowId, scope.flowId)),
    );
}
