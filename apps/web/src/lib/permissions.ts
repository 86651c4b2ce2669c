import { type Action, describeMissingPermission, type Role, roleCan } from '@bahi/contracts';
import { useMe } from './session.ts';

/**
 * What the signed-in person may do, from the permissions table the server enforces (`ROLE_PERMISSIONS`,
 * @bahi/contracts). Buttons a role cannot use are disabled with this reason, never left to fail silently;
 * the server refuses them all the same.
 */
export interface Permission {
  allowed: boolean;
  /** Why not, in words (null when allowed, or while the role is loading). */
  reason: string | null;
}

/** Whether `role` may take `action`, with the reason when it may not. */
export function permissionOf(role: Role | null | undefined, action: Action): Permission {
  if (!role) return { allowed: false, reason: null };
  return roleCan(role, action)
    ? { allowed: true, reason: null }
    : { allowed: false, reason: describeMissingPermission(role, action) };
}

/** The caller's role in the organisation in use (undefined while loading). */
export function useRole(): Role | null | undefined {
  return useMe().data?.role;
}

/** Whether the caller may take `action` in the organisation in use. */
export function usePermission(action: Action): Permission {
  return permissionOf(useRole(), action);
}

/** ₹ and Indian digit grouping for paise: ₹2,50,000. */
export function formatPaise(paise: number): string {
  const rupees = paise / 100;
  const digits = Number.isInteger(rupees) ? 0 : 2;
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/**
 * Why the caller may not approve an invoice above the organisation's limit (null when they may): the
 * server's maker-checker rule, shown beside a disabled Approve button.
 */
export function approvalBlock({
  role,
  limitPaise,
  documentType,
  total,
}: {
  role: Role | null | undefined;
  limitPaise: number | null | undefined;
  documentType: unknown;
  total: unknown;
}): string | null {
  const may = permissionOf(role, 'documents.approve');
  if (!may.allowed) return may.reason;
  if (documentType !== 'invoice' || limitPaise == null || !role) return null;
  const totalPaise = typeof total === 'number' && Number.isFinite(total) ? Math.round(total * 100) : null;
  if (totalPaise !== null && totalPaise <= limitPaise) return null;
  if (roleCan(role, 'documents.approve_above_limit')) return null;
  const amount = totalPaise === null ? 'has no total read' : `totals ${formatPaise(totalPaise)}`;
  return `This invoice ${amount}, above the approval limit of ${formatPaise(limitPaise)}: an approver or owner must approve it.`;
}
