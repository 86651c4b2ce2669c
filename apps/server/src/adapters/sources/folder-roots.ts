import { asc } from 'drizzle-orm';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { organizations } from '../../db/schema/index.ts';

/** The server's first organisation (the single-company setup's), or null before onboarding. */
async function findFirstOrganizationId(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .orderBy(asc(organizations.createdAt), asc(organizations.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The local folders an organisation's flows may read: the BAHI_FOLDER_ROOTS entries granted to it
 * (`/path=<organisation id>`), and, for the server's first organisation only, the entries granted to
 * nobody in particular (a bare `/path`, the single-company setup). Another organisation on the same
 * server never reads them. Configuration order is kept: a relative path is taken against the first.
 */
export async function listFolderRoots(
  db: Db,
  env: Pick<Env, 'flows'>,
  organizationId: string,
): Promise<string[]> {
  const roots = env.flows.folderRoots;
  const bareGranted =
    roots.some((root) => root.organizationId === undefined) &&
    (await findFirstOrganizationId(db)) === organizationId;
  return roots
    .filter((root) => root.organizationId === organizationId || (bareGranted && !root.organizationId))
    .map((root) => root.path);
}
