import { z } from 'zod';
import { safeText } from './text.ts';

/**
 * A finance team: who may do what (roles and the one permissions table the server enforces on every
 * route and the web app reads to hide or disable what a role cannot use), members and invitations, the
 * maker-checker approval limit, sessions and the audit trail.
 */

/** Roles a member can hold, most powerful first. */
export const ROLES = ['owner', 'admin', 'approver', 'reviewer', 'viewer'] as const;
/** A member's role in one organisation. */
export const RoleSchema = z.enum(ROLES);
/** A member's role in one organisation. */
export type Role = z.infer<typeof RoleSchema>;

/** What each role is called and what it is for, as the Team screen says it. */
export const ROLE_INFO: Record<Role, { label: string; description: string }> = {
  owner: { label: 'Owner', description: 'Everything, including making other owners' },
  admin: { label: 'Admin', description: 'Members, settings and integrations; reviews documents' },
  approver: {
    label: 'Approver',
    description: 'Approves documents above the limit and clears reconcile exceptions',
  },
  reviewer: {
    label: 'Reviewer',
    description: 'Corrects and approves documents within the limit; runs flows',
  },
  viewer: { label: 'Viewer', description: 'Reads and downloads; changes nothing' },
};

/**
 * Everything a member can be allowed to do. Each /api route is classified as one of these (or as needing
 * no organisation) in the server's route table; `ROLE_PERMISSIONS` says which roles hold each.
 */
export const ACTIONS = [
  'read',
  'download',
  'personal',
  'audit.read',
  'flows.run',
  'flows.manage',
  'documents.correct',
  'documents.approve',
  'documents.approve_above_limit',
  'documents.remove',
  'rules.change',
  'vendors.edit',
  'vendors.approve_bank_change',
  'reconcile.override',
  'books.post',
  'settings.manage',
  'integrations.manage',
  'members.manage',
] as const;
/** One permission. */
export type Action = (typeof ACTIONS)[number];

const VIEWER: readonly Action[] = ['read', 'download', 'personal', 'audit.read'];
const REVIEWER: readonly Action[] = [
  ...VIEWER,
  'flows.run',
  'documents.correct',
  'documents.approve',
  'documents.remove',
  'rules.change',
  'vendors.edit',
];
const APPROVER: readonly Action[] = [
  ...REVIEWER,
  'documents.approve_above_limit',
  'reconcile.override',
  'vendors.approve_bank_change',
  'books.post',
];
// An admin runs the team and the set-up, and reviews; approving money above the limit stays with
// approvers and owners, so the person who hands out roles is not also the one who signs off.
const ADMIN: readonly Action[] = [
  ...REVIEWER,
  'flows.manage',
  'settings.manage',
  'integrations.manage',
  'members.manage',
];

/** The permissions table: role → the actions it may take. Enforced by the server on every route. */
export const ROLE_PERMISSIONS: Record<Role, readonly Action[]> = {
  owner: [...ACTIONS],
  admin: ADMIN,
  approver: APPROVER,
  reviewer: REVIEWER,
  viewer: VIEWER,
};

/** True when `role` may take `action`. */
export function roleCan(role: Role, action: Action): boolean {
  return ROLE_PERMISSIONS[role].includes(action);
}

/** What a person reads when their role does not allow an action (server refusal and disabled buttons). */
export function describeMissingPermission(role: Role, action: Action): string {
  const holders = ROLES.filter((r) => roleCan(r, action)).map((r) => ROLE_INFO[r].label.toLowerCase());
  const list = holders.length > 1 ? `${holders.slice(0, -1).join(', ')} or ${holders.at(-1)}` : holders[0];
  const article = /^[aeiou]/.test(list ?? '') ? 'an' : 'a';
  return `Your role (${ROLE_INFO[role].label.toLowerCase()}) cannot do this; it needs ${article} ${list}.`;
}

/** Default approval limit: ₹1,00,000 in paise. Invoices above it need an approver or owner. */
export const DEFAULT_APPROVAL_LIMIT_PAISE = 100_000_00;

/** One member of the organisation. */
export const MemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
  joinedAt: z.string(),
  /** True for the caller's own row. */
  you: z.boolean(),
});
/** One member of the organisation. */
export type Member = z.infer<typeof MemberSchema>;

/** A pending invitation (the link itself is shown once, when it is made). */
export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  role: RoleSchema,
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
/** A pending invitation. */
export type Invitation = z.infer<typeof InvitationSchema>;

/** `GET /api/team`: members, pending invitations, the approval limit and whether mail is set up. */
export const TeamSchema = z.object({
  members: z.array(MemberSchema),
  invitations: z.array(InvitationSchema),
  approvalLimitPaise: z.number().int(),
  mailConfigured: z.boolean(),
});
/** `GET /api/team`. */
export type Team = z.infer<typeof TeamSchema>;

/** `POST /api/team/invitations`: whom to invite (an address is optional: the link can be passed on). */
export const CreateInvitationInputSchema = z.object({
  email: safeText().trim().toLowerCase().email('Enter a valid e-mail address').max(320).optional(),
  role: RoleSchema,
});
/** The invite form. */
export type CreateInvitationInput = z.infer<typeof CreateInvitationInputSchema>;

/** A new invitation with its link: the only time the link is shown (only its hash is stored). */
export const InvitationCreatedSchema = z.object({
  invitation: InvitationSchema,
  link: z.string(),
  emailed: z.boolean(),
});
/** A new invitation with its link. */
export type InvitationCreated = z.infer<typeof InvitationCreatedSchema>;

/** `GET /api/invitations/{token}`: what the accept page shows before the person joins. */
export const InvitationPreviewSchema = z.object({
  organizationName: z.string(),
  role: RoleSchema,
  invitedBy: z.string(),
  email: z.string().nullable(),
  expiresAt: z.string(),
});
/** What the accept page shows. */
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

/** An invitation token in a path. */
export const InvitationTokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });

/** `PUT /api/team/members/{userId}`: a new role. */
export const UpdateMemberRoleInputSchema = z.object({ role: RoleSchema });

/** `PUT /api/team/approval-limit`: the maker-checker limit in paise. */
export const ApprovalLimitInputSchema = z.object({
  approvalLimitPaise: z
    .number()
    .int('Enter the limit in whole paise')
    .min(0, 'The limit cannot be negative')
    .max(1_000_000_000_00, 'The limit is too large'),
});

/** An organisation the caller belongs to (for the switcher). */
export const MyOrganizationSchema = z.object({
  id: z.string(),
  legalName: z.string(),
  role: RoleSchema,
  active: z.boolean(),
});
/** An organisation the caller belongs to. */
export type MyOrganization = z.infer<typeof MyOrganizationSchema>;

/** `PUT /api/me/organization`: switch this session to another organisation of the caller's. */
export const SwitchOrganizationInputSchema = z.object({ organizationId: z.string().uuid() });

/** One of the caller's signed-in sessions. */
export const SessionInfoSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
/** One of the caller's sessions. */
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** Kinds of audit events, by area. */
export const AUDIT_KINDS = [
  'auth.sign_in',
  'document.corrected',
  'document.approved',
  'document.approval_refused',
  'document.removed',
  'reconcile.override',
  'reconcile.tolerances',
  'rules.forget',
  'vendor.updated',
  'vendor.link_created',
  'vendor.link_emailed',
  'vendor.link_revoked',
  'vendor.submission_approved',
  'vendor.submission_returned',
  'vendor.submission_rejected',
  'vendor.bank_change_approved',
  'vendor.bank_change_rejected',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'settings.approval_limit',
  'settings.organization',
  'integration.changed',
  'session.ended',
] as const;
/** Kind of an audit event. */
export const AuditKindSchema = z.enum(AUDIT_KINDS);
/** Kind of an audit event. */
export type AuditKind = z.infer<typeof AuditKindSchema>;

/** What the Audit screen calls each kind. */
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  'auth.sign_in': 'Signed in',
  'document.corrected': 'Corrected a document',
  'document.approved': 'Approved a document',
  'document.approval_refused': 'Was refused an approval',
  'document.removed': 'Removed a document',
  'reconcile.override': 'Cleared reconcile exceptions',
  'reconcile.tolerances': 'Changed match tolerances',
  'rules.forget': 'Made Bahi forget a learned value',
  'vendor.updated': 'Changed a vendor',
  'vendor.link_created': 'Made a vendor onboarding link',
  'vendor.link_emailed': 'Sent a vendor onboarding link by e-mail',
  'vendor.link_revoked': 'Revoked a vendor onboarding link',
  'vendor.submission_approved': 'Approved a vendor’s details',
  'vendor.submission_returned': 'Sent a vendor’s form back for changes',
  'vendor.submission_rejected': 'Rejected a vendor’s details',
  'vendor.bank_change_approved': 'Approved a vendor’s new bank account',
  'vendor.bank_change_rejected': 'Refused a vendor’s new bank account',
  'member.invited': 'Invited a member',
  'member.invitation_revoked': 'Revoked an invitation',
  'member.joined': 'Joined the team',
  'member.role_changed': "Changed a member's role",
  'member.removed': 'Removed a member',
  'settings.approval_limit': 'Changed the approval limit',
  'settings.organization': 'Changed the organisation profile',
  'integration.changed': 'Changed an integration',
  'session.ended': 'Ended a session',
};

/** One entry of the audit trail (never changed once written). */
export const AuditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: AuditKindSchema,
  actorId: z.string().nullable(),
  actorName: z.string(),
  documentId: z.string().nullable(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
});
/** One entry of the audit trail. */
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** Filters of the Audit screen (and its CSV export). Dates are `YYYY-MM-DD`, both ends included. */
export const AuditQuerySchema = z.object({
  actorId: safeText().max(200).optional(),
  kind: AuditKindSchema.optional(),
  documentId: z.string().uuid().optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-04-01')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-04-30')
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
/** Filters of the Audit screen. */
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** `GET /api/audit`: a page of events, newest first, and the people who appear in the trail. */
export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  people: z.array(z.object({ id: z.string(), name: z.string() })),
});
/** `GET /api/audit`. */
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** A member in a path (better-auth user ids are random strings). */
export const MemberParamsSchema = z.object({ userId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/** One of the caller's sessions in a path. */
export const SessionParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/** `GET /api/me/sessions`. */
export const SessionListSchema = z.array(SessionInfoSchema);

/** `POST /api/invitations/{token}/accept`: the organisation joined (this session now works in it). */
export const AcceptedInvitationSchema = z.object({ organizationId: z.string() });
