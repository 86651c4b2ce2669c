import {
  type Action,
  type ExtractionDocumentType,
  getFieldKind,
  ROLE_INFO,
  type Role,
  roleCan,
} from '@bahi/contracts';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentEvents, memberships, organizations } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';

// Maker-checker: the rules that keep one person from both making and checking a change of money. The
// refusals are `forbidden` AppErrors whose message names the rule in plain words.

/** Value kinds whose correction changes what is paid: amounts, quantities and tax rates. */
const AMOUNT_KINDS = new Set(['money', 'quantity', 'percent']);

/** Paise as Indians write rupees: ₹2,50,000 (paise only when there are some). */
export function formatRupees(paise: number): string {
  const rupees = paise / 100;
  const digits = Number.isInteger(rupees) ? 0 : 2;
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** The organisation's approval limit in paise. */
export async function findApprovalLimit(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ limit: organizations.approvalLimitPaise })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.limit ?? 0;
}

/**
 * True when someone in the organisation other than `userId` holds a role allowed `action`: the only case in
 * which "someone else must do it" can be met. A person working alone (or the only approver of a team) is not
 * locked out of their own documents; the audit trail still says who made and who checked each change.
 */
async function anotherMemberMay(
  db: Db,
  { organizationId, userId, action }: { organizationId: string; userId: string; action: Action },
): Promise<boolean> {
  const rows = await db
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), ne(memberships.userId, userId)));
  return rows.some((r) => roleCan(r.role as Role, action));
}

/** Who corrected the document's values: `amounts` only those who changed an amount, quantity or rate. */
export async function listCorrectors(
  db: Db,
  {
    organizationId,
    documentId,
    type,
  }: { organizationId: string; documentId: string; type: ExtractionDocumentType },
): Promise<{ amounts: Set<string>; any: Set<string> }> {
  const rows = await db
    .select({ userId: documentEvents.userId, field: documentEvents.field })
    .from(documentEvents)
    .where(
      and(
        eq(documentEvents.organizationId, organizationId),
        eq(documentEvents.documentId, documentId),
        eq(documentEvents.kind, 'corrected'),
      ),
    );
  const amounts = new Set<string>();
  const any = new Set<string>();
  for (const { userId, field } of rows) {
    if (!userId) continue;
    any.add(userId);
    // `total` or `lineItems.3.amount`: the field's own name is the last part.
    const name = field?.split('.').at(-1) ?? '';
    const kind = getFieldKind(type, name);
    if (kind && AMOUNT_KINDS.has(kind)) amounts.add(userId);
  }
  return { amounts, any };
}

/**
 * Refuses an approval the rules forbid: an invoice whose total is above the organisation's limit (or could
 * not be read) needs a role allowed to approve above it, and not the person who corrected its amounts
 * (when anyone else may approve it).
 */
export async function requireApprovalAllowed(
  db: Db,
  {
    user,
    membership,
    documentId,
    type,
    total,
  }: {
    user: SessionUser;
    membership: Membership;
    documentId: string;
    type: ExtractionDocumentType;
    total: unknown;
  },
): Promise<void> {
  if (type !== 'invoice') return;
  const limit = await findApprovalLimit(db, membership.organizationId);
  const totalPaise = typeof total === 'number' && Number.isFinite(total) ? Math.round(total * 100) : null;
  if (totalPaise !== null && totalPaise <= limit) return;
  const amount = totalPaise === null ? 'has no total read' : `totals ${formatRupees(totalPaise)}`;
  // A refused approval is itself worth an auditor's eye: it is recorded before the refusal is answered.
  const refuse = async (message: string): Promise<never> => {
    await recordAudit(db, {
      organizationId: membership.organizationId,
      kind: 'document.approval_refused',
      actor: user,
      documentId,
      summary: `${user.name} was refused an approval. ${message}`,
      details: {
        total: totalPaise === null ? null : totalPaise / 100,
        limitPaise: limit,
        role: membership.role,
      },
    });
    throw new AppError('forbidden', message);
  };
  if (!roleCan(membership.role, 'documents.approve_above_limit'))
    await refuse(
      `Approval limit: this invoice ${amount}, and invoices above ${formatRupees(limit)} must be approved by an approver or owner (your role is ${ROLE_INFO[membership.role].label.toLowerCase()}).`,
    );
  const correctors = await listCorrectors(db, {
    organizationId: membership.organizationId,
    documentId,
    type,
  });
  if (
    correctors.amounts.has(user.id) &&
    (await anotherMemberMay(db, {
      organizationId: membership.organizationId,
      userId: user.id,
      action: 'documents.approve_above_limit',
    }))
  )
    await refuse(
      `Maker-checker: you corrected this invoice's amounts, so someone else must approve it (it is above the approval limit of ${formatRupees(limit)}).`,
    );
}

/**
 * Refuses an override of exceptions by the person who corrected the document, when someone else may clear
 * them.
 */
export async function requireOverrideByAnother(
  db: Db,
  { user, membership, documentId }: { user: SessionUser; membership: Membership; documentId: string },
): Promise<void> {
  const correctors = await listCorrectors(db, {
    organizationId: membership.organizationId,
    documentId,
    type: 'invoice',
  });
  if (
    correctors.any.has(user.id) &&
    (await anotherMemberMay(db, {
      organizationId: membership.organizationId,
      userId: user.id,
      action: 'reconcile.override',
    }))
  )
    throw new AppError(
      'forbidden',
      'Maker-checker: you corrected this invoice, so someone else must clear its exceptions.',
    );
}

/**
 * A vendor's new bank account is approved by someone other than the person who asked for it (who approved
 * the vendor's form). Unlike the approval rules above there is no way round it for a person working alone:
 * a changed bank account is the commonest payment fraud, so the invoices stay on hold until a second
 * person looks.
 */
export function requireBankChangeByAnother(user: SessionUser, requestedBy: string): void {
  if (user.id === requestedBy)
    throw new AppError(
      'forbidden',
      'Maker-checker: you approved this vendor’s new bank details, so someone else must approve the change. Ask an approver or owner.',
    );
}
