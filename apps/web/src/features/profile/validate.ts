import { organizationMessages } from '@bahi/contracts';
import { isValidIndianPhone } from '@bahi/india';
import type { FieldErrors } from '@/features/onboarding/validate.ts';
import type { ProfileValues } from './gstin-list.ts';

/** Checks the profile form before saving, with the messages the server uses. */
export function validateProfile(values: ProfileValues): FieldErrors<keyof ProfileValues> {
  const errors: FieldErrors<keyof ProfileValues> = {};
  if (!values.legalName.trim()) errors.legalName = organizationMessages.legalNameRequired;
  if (!values.phone.trim()) errors.phone = organizationMessages.phoneRequired;
  else if (!isValidIndianPhone(values.phone)) errors.phone = organizationMessages.phoneInvalid;
  if (!values.address.trim()) errors.address = organizationMessages.addressRequired;
  return errors;
}
