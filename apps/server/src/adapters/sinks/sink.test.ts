import { describe, expect, it } from 'vitest';
import { toReadableSheetValue, toSheetLocalDateTime } from './sink.ts';

describe('what a spreadsheet shows', () => {
  it('says the review verdict and failed checks in words', () => {
    expect(toReadableSheetValue('reviewFlag', 'ok')).toBe('OK');
    expect(toReadableSheetValue('reviewFlag', 'review')).toBe('Needs review');
    expect(toReadableSheetValue('checksFailed', 'gstin_checksum, taxes_sum_to_total')).toBe(
      "A GSTIN's check digit is wrong — likely a typo; Taxable value plus taxes doesn't equal the total",
    );
    expect(toReadableSheetValue('checksFailed', '')).toBe('');
    expect(toReadableSheetValue('total', 1180)).toBe(1180);
  });

  it("gives a timestamp as India's wall-clock time", () => {
    expect(toSheetLocalDateTime('2026-11-24T05:30:00Z')?.toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(toSheetLocalDateTime('2026-03-31T20:00:00Z')?.toISOString()).toBe('2026-04-01T01:30:00.000Z');
    expect(toSheetLocalDateTime('not a time')).toBeNull();
  });
});
