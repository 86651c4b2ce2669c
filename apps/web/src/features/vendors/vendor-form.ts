import { paymentTermsDaysMessage, type Vendor, VendorUpdateSchema } from '@bahi/contracts';
import { z } from 'zod';
import { readOptionalNumber, textField } from '../../lib/form.ts';

/** The dialog's own words where the contract's would be less helpful to a person typing. */
export const vendorFormMessages = {
  // The contract's own words (the server says the same), also for text that is not a number at all.
  paymentTermsDays: paymentTermsDaysMessage,
  tolerances: 'Tolerances are 0–100 % and rupees from 0; leave one empty to use the organisation’s',
} as const;

const rules = VendorUpdateSchema.shape;
const toleranceRules = rules.tolerances.unwrap().shape;

/** A vendor tolerance box: empty takes the organisation's (null); the number is the contract's rule. */
const toleranceField = (rule: z.ZodType<number | null, number | null>) =>
  textField(readOptionalNumber, rule, vendorFormMessages.tolerances);

/**
 * The vendor dialog's boxes, as typed, checked by `VendorUpdateSchema`'s rules and turned into the
 * `PATCH /api/vendors/:id` body: empty boxes clear their value (null), the Udyam number is upper-cased.
 */
export const VendorFormSchema = z.object({
  displayName: textField((text) => text.trim() || null, rules.displayName),
  paymentTermsDays: textField(
    readOptionalNumber,
    rules.paymentTermsDays,
    vendorFormMessages.paymentTermsDays,
  ),
  msmeUdyam: textField((text) => text.trim().toUpperCase() || null, rules.msmeUdyam),
  noPoNeeded: z.boolean(),
  tolerances: z.object({
    qtyPct: toleranceField(toleranceRules.qtyPct),
    pricePct: toleranceField(toleranceRules.pricePct),
    amountRupees: toleranceField(toleranceRules.amountRupees),
  }),
});
/** The vendor dialog's boxes, as typed. */
export type VendorFormValues = z.input<typeof VendorFormSchema>;
/** The `PATCH /api/vendors/:id` body the dialog sends. */
export type VendorFormOutput = z.output<typeof VendorFormSchema>;

const show = (value: number | null) => (value === null ? '' : String(value));

/** The dialog's boxes filled from the vendor as stored. */
export function toVendorFormValues(vendor: Vendor): VendorFormValues {
  return {
    displayName: vendor.displayName ?? '',
    paymentTermsDays: show(vendor.paymentTermsDays),
    msmeUdyam: vendor.msmeUdyam ?? '',
    noPoNeeded: vendor.noPoNeeded,
    tolerances: {
      qtyPct: show(vendor.tolerances.qtyPct),
      pricePct: show(vendor.tolerances.pricePct),
      amountRupees: show(vendor.tolerances.amountRupees),
    },
  };
}
