import { z } from 'zod';
import { OrganizationSchema } from './organization.ts';
import { MyOrganizationSchema, RoleSchema } from './team.ts';

/** One identity provider the sign-in page offers (Google, or any OIDC provider). */
export const AuthProviderSchema = z.object({
  /** better-auth genericOAuth provider id; pass it to `signIn.oauth2` or `/auth/popup/<id>`. */
  id: z.string(),
  name: z.string(),
});
/** One identity provider the sign-in page offers. */
export type AuthProvider = z.infer<typeof AuthProviderSchema>;

/** `GET /api/auth-config`: which sign-in options to show. */
export const AuthConfigSchema = z.object({
  /** False when LOCAL_ACCOUNTS=false: hide e-mail/password forms. */
  localAccounts: z.boolean(),
  providers: z.array(AuthProviderSchema),
});
/** `GET /api/auth-config`. */
export type AuthConfig = z.infer<typeof AuthConfigSchema>;

/** The signed-in user as the app sees it. */
export const MeUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
});
/** The signed-in user. */
export type MeUser = z.infer<typeof MeUserSchema>;

/** `GET /api/me`: the user and their organisation (null until onboarding). */
export const MeSchema = z.object({
  user: MeUserSchema,
  organization: OrganizationSchema.nullable(),
  /** The caller's role in the organisation in use (null until onboarding). */
  role: RoleSchema.nullable(),
  /** Above this total (paise) an invoice needs an approver (null until onboarding). */
  approvalLimitPaise: z.number().int().nullable(),
  /** Every organisation the caller belongs to; `active` marks the one in use. */
  organizations: z.array(MyOrganizationSchema),
});
/** `GET /api/me`. */
export type Me = z.infer<typeof MeSchema>;

/** Message the popup page posts to its opener when an identity-provider sign-in ends. */
export const PopupAuthMessageSchema = z.object({
  type: z.literal('bahi-auth'),
  ok: z.boolean(),
  error: z.string().optional(),
});
/** Message the popup page posts to its opener. */
export type PopupAuthMessage = z.infer<typeof PopupAuthMessageSchema>;
