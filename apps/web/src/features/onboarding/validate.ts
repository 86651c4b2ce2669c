import { type OrgType, organizationMessages, orgTypes } from '@bahi/contracts';
import { isValidIndianPhone } from '@bahi/india';

/** Values of the onboarding form (orgType is '' until chosen). */
export interface OnboardingValues {
  orgName: string;
  phone: string;
  orgType: OrgType | '';
  address: string;
}

/** Field → message for every invalid field; empty when the form may be submitted. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Checks the onboarding form with the same messages the server uses. */
export function validateOnboarding(values: OnboardingValues): FieldErrors<keyof OnboardingValues> {
  const errors: FieldErrors<keyof OnboardingValues> = {};
  if (!values.orgName.trim()) errors.orgName = organizationMessages.orgNameRequired;
  if (!values.phone.trim()) errors.phone = organizationMessages.phoneRequired;
  else if (!isValidIndianPhone(values.phone)) errors.phone = organizationMessages.phoneInvalid;
  if (!values.orgType || !(orgTypes as readonly string[]).includes(values.orgType)) {
    errors.orgType = organizationMessages.orgTypeRequired;
  }
  if (!values.address.trim()) errors.address = organizationMessages.addressRequired;
  return errors;
}

/** True when `errors` has no messages. */
export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
