import {
  type MsmeBankRate,
  type MsmeBankRateInput,
  MsmeBankRateInputSchema,
  type MsmeSettings,
} from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { type BankRateRow, deleteBankRate, listBankRates, upsertBankRate } from './msme.repo.ts';

// The bank rate history behind section 16 interest. The Reserve Bank changes the bank rate from time to
// time, and an invoice's interest runs at three times the rate in force on its due date, so each rate is
// kept with the day it took effect rather than as one setting that would reprice every past delay.

/** A rate as the screen shows it. */
export function toBankRate(row: BankRateRow): MsmeBankRate {
  return {
    id: row.id,
    effectiveFrom: row.effectiveFrom,
    bankRatePct: row.bankRatePct,
    addedBy: row.userName,
  };
}

/** `GET /api/msme/settings`: the bank rate history, latest first. */
export async function getMsmeSettings(db: Db, membership: Membership): Promise<MsmeSettings> {
  return { bankRates: (await listBankRates(db, membership.organizationId)).map(toBankRate) };
}

/** `POST /api/msme/bank-rates`: a rate from the day it took effect (that day again replaces it). */
export async function addBankRate(
  db: Db,
  { user, membership, input: raw }: { user: SessionUser; membership: Membership; input: MsmeBankRateInput },
): Promise<MsmeSettings> {
  const input = MsmeBankRateInputSchema.parse(raw);
  if (Number.isNaN(Date.parse(`${input.effectiveFrom}T00:00:00Z`)))
    throw new AppError('validation', 'Enter a real date', { effectiveFrom: 'Enter a real date' });
  await db.transaction(async (tx) => {
    await upsertBankRate(tx, {
      organizationId: membership.organizationId,
      effectiveFrom: input.effectiveFrom,
      bankRatePct: input.bankRatePct,
      userName: user.name,
    });
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'settings.organization',
      actor: user,
      summary: `${user.name} recorded a bank rate of ${input.bankRatePct} % from ${input.effectiveFrom} for MSME interest`,
      details: { effectiveFrom: input.effectiveFrom, bankRatePct: input.bankRatePct },
    });
  });
  return getMsmeSettings(db, membership);
}

/** `DELETE /api/msme/bank-rates/{id}`: removes a mistaken rate. */
export async function removeBankRate(
  db: Db,
  { user, membership, id }: { user: SessionUser; membership: Membership; id: string },
): Promise<MsmeSettings> {
  await db.transaction(async (tx) => {
    const row = UUID_RE.test(id) ? await deleteBankRate(tx, membership.organizationId, id) : undefined;
    if (!row) throw new AppError('not_found', 'No such bank rate');
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'settings.organization',
      actor: user,
      summary: `${user.name} removed the bank rate of ${row.bankRatePct} % from ${row.effectiveFrom}`,
      details: { effectiveFrom: row.effectiveFrom, bankRatePct: row.bankRatePct },
    });
  });
  return getMsmeSettings(db, membership);
}
