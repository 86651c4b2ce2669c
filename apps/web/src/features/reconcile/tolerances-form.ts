import { type Tolerances, TolerancesSchema } from '@bahi/contracts';
import { z } from 'zod';
import { textField } from '../../lib/form.ts';

/**
 * The tolerances dialog's three boxes as typed, checked by the contract's tolerance rules. A box is
 * read with `Number`, as it always was: an empty box is 0 (no tolerance), anything not a number fails.
 */
export const TolerancesFormSchema = z.object({
  qtyPct: textField(Number, TolerancesSchema.shape.qtyPct),
  pricePct: textField(Number, TolerancesSchema.shape.pricePct),
  amountRupees: textField(Number, TolerancesSchema.shape.amountRupees),
});
/** The dialog's boxes, as typed. */
export type TolerancesFormValues = z.input<typeof TolerancesFormSchema>;

/** The boxes filled from the organisation's tolerances. */
export function toTolerancesFormValues(current: Tolerances): TolerancesFormValues {
  return {
    qtyPct: String(current.qtyPct),
    pricePct: String(current.pricePct),
    amountRupees: String(current.amountRupees),
  };
}
