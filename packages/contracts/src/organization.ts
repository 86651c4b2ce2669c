import { isValidIndianPhone } from '@bahi/india';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from './intake.ts';
import { safeText } from './text.ts';

/** Legal forms an organisation can take, in the order the UI lists them. */
export const orgTypes = ['pvt_ltd', 'ltd', 'llp', 'others'] as const;

/** Legal form of an organisation. */
export const OrgTypeSchema = z.enum(orgTypes, { error: 'Organization type is required' });
/** Legal form of an organisation. */
export type OrgType = z.infer<typeof OrgTypeSchema>;

/** Human labels for each organisation type. */
export const orgTypeLabels: Record<OrgType, string> = {
  pvt_ltd: 'Private Limited',
  ltd: 'Public Limited',
  llp: 'Limited Liability Partnership',
  others: 'Others',
};

/** Organisation type preselected in forms. */
export const defaultOrgType: OrgType = 'pvt_ltd';

/** Exact validation messages shown under form fields (shared so web and server agree). */
export const organizationMessages = {
  orgNameRequired: 'Organization name is required',
  legalNameRequired: 'Legal name is required',
  phoneRequired: 'Contact phone is required',
  phoneInvalid: 'Please enter a valid phone number',
  orgTypeRequired: 'Organization type is required',
  addressRequired: 'Business address is required',
  gstinRequired: 'GSTIN is required',
  gstinInvalid: 'Please enter a valid GSTIN',
  gstinDuplicate: 'This GSTIN is already added',
} as const;

/** A required, trimmed text field whose absence and emptiness share one message. */
function requiredText(message: string) {
  return safeText({ error: message }).trim().min(1, message);
}

/** Contact phone: required and a valid Indian mobile or landline (the server stores it as +91…). */
const PhoneSchema = requiredText(organizationMessages.phoneRequired)
  .max(32, organizationMessages.phoneInvalid)
  // Empty input already has "required"; don't pile a second message onto it.
  .refine((value) => value === '' || isValidIndianPhone(value), organizationMessages.phoneInvalid);

/** One GSTIN registered to an organisation. */
export const OrganizationGstinSchema = z.object({
  id: z.string(),
  gstin: z.string(),
  label: z.string().nullable(),
  /** Two-digit GST state code (first two characters of the GSTIN). */
  stateCode: z.string(),
});
/** One GSTIN registered to an organisation. */
export type OrganizationGstin = z.infer<typeof OrganizationGstinSchema>;

/** The caller's organisation profile. Timestamps are ISO-8601 strings. */
export const OrganizationSchema = z.object({
  id: z.string(),
  legalName: z.string(),
  phone: z.string(),
  orgType: OrgTypeSchema,
  address: z.string(),
  gstins: z.array(OrganizationGstinSchema),
  /** The IANA time zone "daily at a time" schedules are read in (and shown in), e.g. Asia/Kolkata. */
  timeZone: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** The caller's organisation profile. */
export type Organization = z.infer<typeof OrganizationSchema>;

/** Body of `POST /api/organization` (onboarding). */
export const CreateOrganizationInputSchema = z.object({
  orgName: requiredText(organizationMessages.orgNameRequired).max(200),
  phone: PhoneSchema,
  orgType: OrgTypeSchema,
  address: requiredText(organizationMessages.addressRequired).max(1000),
});
/** Body of `POST /api/organization` (onboarding). */
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationInputSchema>;

/** One GSTIN row in the profile form; the server validates checksum and state code. */
export const GstinInputSchema = z.object({
  gstin: requiredText(organizationMessages.gstinRequired).max(32, organizationMessages.gstinInvalid),
  label: safeText().trim().max(100).nullable().optional(),
});
/** One GSTIN row in the profile form. */
export type GstinInput = z.infer<typeof GstinInputSchema>;

/** An organisation's time zone: an IANA name this runtime knows. */
export const OrganizationTimeZoneSchema = safeText()
  .trim()
  .min(1, 'Choose a time zone')
  .max(64)
  .refine(isTimeZone, { message: 'Unknown time zone; use a name like Asia/Kolkata' });

/** The time zone a new organisation gets. */
export const defaultOrganizationTimeZone = DEFAULT_TIME_ZONE;

/** Body of `PUT /api/organization`: the whole profile; GSTINs are replaced as a set. */
export const UpdateOrganizationInputSchema = z.object({
  legalName: requiredText(organizationMessages.legalNameRequired).max(200),
  phone: PhoneSchema,
  orgType: OrgTypeSchema,
  address: requiredText(organizationMessages.addressRequired).max(1000),
  gstins: z.array(GstinInputSchema).max(100).default([]),
  /** Left out = unchanged (the stored zone, Asia/Kolkata unless someone chose another). */
  timeZone: OrganizationTimeZoneSchema.optional(),
});
/** Body of `PUT /api/organization`. */
export type UpdateOrganizationInput = z.input<typeof UpdateOrganizationInputSchema>;
