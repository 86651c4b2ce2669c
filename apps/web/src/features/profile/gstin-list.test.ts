import { computeGstinCheckChar } from '@bahi/india';
import { describe, expect, it } from 'vitest';
import {
  addGstinEntry,
  buildProfileUpdate,
  countStatesCovered,
  getGstinStateName,
  ProfileFormSchema,
} from './gstin-list.ts';

/** A GSTIN with a correct check character for the given state and PAN. */
function makeGstin(state: string, pan = 'AAACB1234C'): string {
  const body = `${state}${pan}1Z`;
  return body + computeGstinCheckChar(body);
}

describe('addGstinEntry', () => {
  it('adds a valid GSTIN with its state code and trimmed label', () => {
    const gstin = makeGstin('29');
    const result = addGstinEntry([], gstin, '  Bengaluru HQ ');
    expect(result).toEqual({ ok: true, entries: [{ gstin, label: 'Bengaluru HQ', stateCode: '29' }] });
  });

  it('stores an empty label as null', () => {
    const result = addGstinEntry([], makeGstin('27'), '   ');
    expect(result.ok && result.entries[0]?.label).toBe(null);
  });

  it('rejects a GSTIN with a wrong check character, explaining why', () => {
    const good = makeGstin('29');
    const bad = good.slice(0, 14) + (good[14] === 'A' ? 'B' : 'A');
    const result = addGstinEntry([], bad, '');
    expect(result).toMatchObject({ ok: false, reason: 'invalid' });
    expect(!result.ok && result.message).toMatch(/check character/);
  });

  it('rejects a duplicate', () => {
    const gstin = makeGstin('07');
    const first = addGstinEntry([], gstin, '');
    if (!first.ok) throw new Error('expected ok');
    expect(addGstinEntry(first.entries, gstin.toLowerCase(), 'again')).toMatchObject({
      ok: false,
      reason: 'duplicate',
    });
  });
});

describe('summary helpers', () => {
  it('counts distinct states and names them', () => {
    const entries = [
      { gstin: makeGstin('29'), label: null, stateCode: '29' },
      { gstin: makeGstin('29', 'AAACB1234D'), label: null, stateCode: '29' },
      { gstin: makeGstin('27'), label: null, stateCode: '27' },
    ];
    expect(countStatesCovered(entries)).toBe(2);
    expect(getGstinStateName('29')).toBe('Karnataka');
    expect(getGstinStateName('00')).toBe('State code 00');
  });

  it('builds the PUT body with trimmed values', () => {
    const gstin = makeGstin('29');
    expect(
      buildProfileUpdate({ legalName: ' Acme ', phone: ' 9845012345 ', orgType: 'llp', address: ' Pune ' }, [
        { gstin, label: 'HQ', stateCode: '29' },
      ]),
    ).toEqual({
      legalName: 'Acme',
      phone: '9845012345',
      orgType: 'llp',
      address: 'Pune',
      gstins: [{ gstin, label: 'HQ' }],
    });
  });
});

describe('ProfileFormSchema', () => {
  it("requires the legal name and a valid phone, in the contract's words", () => {
    const result = ProfileFormSchema.safeParse({
      legalName: '',
      phone: '123',
      orgType: 'pvt_ltd',
      address: 'x',
    });
    const messages = Object.fromEntries(
      (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages).toEqual({
      legalName: 'Legal name is required',
      phone: 'Please enter a valid phone number',
    });
  });
});
