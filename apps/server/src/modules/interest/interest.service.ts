import {
  type InterestList,
  type InterestModule,
  interestModuleLabels,
  interestModules,
} from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { SessionUser } from '../auth/identity.ts';
import { insertInterest, listInterestModules } from './interest.repo.ts';

/** Keeps only module names the contract knows (rows from retired modules are not shown). */
function toInterestList(modules: string[]): InterestList {
  return {
    modules: modules.filter((m): m is InterestModule => (interestModules as readonly string[]).includes(m)),
  };
}

/** Modules the user asked to be notified about. */
export async function listInterests(db: Db, organizationId: string, userId: string): Promise<InterestList> {
  return toInterestList(await listInterestModules(db, organizationId, userId));
}

/**
 * "Get Notified": records the user's interest in an upcoming module. Idempotent — asking twice keeps one
 * row and logs one activity.
 */
export async function registerInterest(
  db: Db,
  { organizationId, user, module }: { organizationId: string; user: SessionUser; module: InterestModule },
): Promise<InterestList> {
  await db.transaction(async (tx) => {
    const isNew = await insertInterest(tx, { organizationId, userId: user.id, module });
    if (isNew) {
      const label = interestModuleLabels[module];
      await recordActivity(tx, {
        organizationId,
        kind: 'interest.registered',
        message: `${user.name} asked to be notified about ${label}`,
        userId: user.id,
      });
    }
  });
  return listInterests(db, organizationId, user.id);
}
