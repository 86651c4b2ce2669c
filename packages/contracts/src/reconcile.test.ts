import { describe, expect, it } from 'vitest';
import { MSME_MAX_PAYMENT_DAYS, paymentTermsDaysMessage, VendorUpdateSchema } from './reconcile.ts';

describe('VendorUpdateSchema agreed payment days', () => {
  it('takes 0 to 45 days, or null when nothing was agreed', () => {
    for (const days of [0, 30, MSME_MAX_PAYMENT_DAYS, null])
      expect(VendorUpdateSchema.parse({ paymentTermsDays: days })).toEqual({ paymentTermsDays: days });
  });

  it('refuses more than the MSMED Act allows (section 15: 45 days), in words under the field', () => {
    for (const days of [60, 46, -1, 1.5]) {
      const issues = VendorUpdateSchema.safeParse({ paymentTermsDays: days }).error?.issues ?? [];
      expect(issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['paymentTermsDays', paymentTermsDaysMessage],
      ]);
    }
    expect(paymentTermsDaysMessage).toMatch(/at most 45 days to pay an MSME supplier/);
  });
});
