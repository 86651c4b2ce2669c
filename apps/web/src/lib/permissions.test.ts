import { describe, expect, it } from 'vitest';
import { approvalBlock, formatPaise, permissionOf } from './permissions.ts';

describe('permissions in the web app', () => {
  it('says why a role may not act, and nothing while the role loads', () => {
    expect(permissionOf('viewer', 'documents.correct')).toEqual({
      allowed: false,
      reason: 'Your role (viewer) cannot do this; it needs an owner, admin, approver or reviewer.',
    });
    expect(permissionOf('reviewer', 'documents.correct')).toEqual({ allowed: true, reason: null });
    expect(permissionOf(undefined, 'read')).toEqual({ allowed: false, reason: null });
  });

  it('blocks a reviewer from approving an invoice above the limit, not an approver', () => {
    const above = { limitPaise: 100_000_00, documentType: 'invoice', total: 250000 };
    expect(approvalBlock({ role: 'reviewer', ...above })).toBe(
      'This invoice totals ₹2,50,000, above the approval limit of ₹1,00,000: an approver or owner must approve it.',
    );
    expect(approvalBlock({ role: 'approver', ...above })).toBeNull();
    expect(approvalBlock({ role: 'reviewer', ...above, total: 99999 })).toBeNull();
    expect(approvalBlock({ role: 'reviewer', ...above, documentType: 'po' })).toBeNull();
    expect(approvalBlock({ role: 'reviewer', ...above, total: null })).toMatch(/has no total read/);
    expect(formatPaise(1_234_50)).toBe('₹1,234.50');
  });
});
