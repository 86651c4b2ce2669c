import {
  organizationMessages,
  type UpdateOrganizationInput,
  UpdateOrganizationInputSchema,
} from '@bahi/contracts';
import { stateByCode, validateGstin } from '@bahi/india';

/** One GSTIN row being edited on the profile page (ids are not needed: the set is replaced on save). */
export interface GstinEntry {
  gstin: string;
  label: string | null;
  stateCode: string;
}

/** Result of trying to add a GSTIN to the list. */
export type AddGstinResult =
  | { ok: true; entries: GstinEntry[] }
  | { ok: false; reason: 'invalid' | 'duplicate'; message: string };

/** Appends a GSTIN after checking it (checksum, state code) and that it is not already listed. */
export function addGstinEntry(entries: GstinEntry[], rawGstin: string, rawLabel: string): AddGstinResult {
  const validation = validateGstin(rawGstin);
  if (!validation.ok) return { ok: false, reason: 'invalid', message: validation.message };
  const gstin = rawGstin.trim().toUpperCase();
  if (entries.some((entry) => entry.gstin === gstin)) {
    return { ok: false, reason: 'duplicate', message: organizationMessages.gstinDuplicate };
  }
  const label = rawLabel.trim() || null;
  return { ok: true, entries: [...entries, { gstin, label, stateCode: validation.stateCode }] };
}

/** Name of the state a GSTIN is registered in, from its first two digits. */
export function getGstinStateName(stateCode: string): string {
  return stateByCode(stateCode)?.name ?? `State code ${stateCode}`;
}

/** How many distinct states the GSTINs cover. */
export function countStatesCovered(entries: GstinEntry[]): number {
  return new Set(entries.map((entry) => entry.stateCode)).size;
}

/** Profile form values: the `PUT /api/organization` body but its GSTIN set. */
export type ProfileValues = Omit<UpdateOrganizationInput, 'gstins'>;

/** The profile form's rules: the contract's, but for GSTINs, which are checked as they are added. */
export const ProfileFormSchema = UpdateOrganizationInputSchema.omit({ gstins: true });

/** Builds the `PUT /api/organization` body: trimmed fields and the GSTIN set. */
export function buildProfileUpdate(values: ProfileValues, entries: GstinEntry[]): UpdateOrganizationInput {
  return {
    legalName: values.legalName.trim(),
    phone: values.phone.trim(),
    orgType: values.orgType,
    address: values.address.trim(),
    ...(values.timeZone ? { timeZone: values.timeZone } : {}),
    gstins: entries.map((entry) => ({ gstin: entry.gstin, label: entry.label })),
  };
}
