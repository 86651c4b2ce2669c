import { describe, expect, it } from 'vitest';
import { isValidIndianPhone, normalizeIndianPhone } from './phone.ts';

describe('normalizeIndianPhone', () => {
  it.each([
    ['+91 98450 12345', '+919845012345'],
    ['098450-12345', '+919845012345'],
    ['9845012345', '+919845012345'],
    ['91 98450 12345', '+919845012345'],
    ['0091 98450 12345', '+919845012345'],
    ['+91-98450-12345', '+919845012345'],
    ['Mob: +91 98450 12345', '+919845012345'],
    ['080-2222 3333', '+918022223333'],
    ['+91-80-22223333', '+918022223333'],
    ['+91 (0)80 2222 3333', '+918022223333'],
    ['(080) 2222 3333', '+918022223333'],
    ['011-2345 6789', '+911123456789'],
    ['0674-255 1234', '+916742551234'],
    ['Tel. 044 2811 2233', '+914428112233'],
  ])('%s → %s', (raw, e164) => {
    expect(normalizeIndianPhone(raw)).toBe(e164);
  });

  it.each([
    [''],
    ['12345'],
    ['98450 1234'],
    ['98450 123456'],
    ['+1 415 555 0100'],
    ['+44 20 7946 0958'],
    ['0000000000'],
    ['0123456789'],
    ['98450 12345 / 98450 54321'],
  ])('%s → null', (raw) => {
    expect(normalizeIndianPhone(raw)).toBeNull();
  });
});

describe('isValidIndianPhone', () => {
  it('agrees with normalizeIndianPhone', () => {
    expect(isValidIndianPhone('+91 98450 12345')).toBe(true);
    expect(isValidIndianPhone('080-2222 3333')).toBe(true);
    expect(isValidIndianPhone('12345')).toBe(false);
  });
});
