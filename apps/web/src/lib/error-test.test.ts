import { describe, expect, it } from 'vitest';
import { isErrorTestEnabled } from './error-test.ts';

describe('isErrorTestEnabled', () => {
  const storageWith = (value: string | null) => ({ getItem: () => value });
  it('is on in dev builds', () => {
    expect(isErrorTestEnabled(true, undefined)).toBe(true);
  });
  it('needs the localStorage flag in production', () => {
    expect(isErrorTestEnabled(false, storageWith('1'))).toBe(true);
    expect(isErrorTestEnabled(false, storageWith('0'))).toBe(false);
    expect(isErrorTestEnabled(false, storageWith(null))).toBe(false);
    expect(isErrorTestEnabled(false, undefined)).toBe(false);
  });
});
