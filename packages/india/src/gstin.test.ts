import { describe, expect, it } from 'vitest';
import {
  computeGstinCheckChar,
  GSTIN_PATTERN,
  isValidGstin,
  isValidPan,
  normalizeGstinInput,
  panFromGstin,
  repairGstin,
  validateGstin,
} from './gstin.ts';

/** Build a valid GSTIN from its first 14 characters. */
function appendCheckChar(first14: string): string {
  return first14 + computeGstinCheckChar(first14);
}

describe('computeGstinCheckChar', () => {
  it('matches the check characters of published GSTINs', () => {
    expect(computeGstinCheckChar('27AAPFU0939F1Z')).toBe('V');
    expect(computeGstinCheckChar('29AABCT1332L1Z')).toBe('A');
  });

  it('follows the documented algorithm step by step', () => {
    // Hand computation for 29AABCT1332L1Z: values 2,9,10,10,11,12,29,1,3,3,2,21,1,35;
    // factors 1,2,1,2,…; products 2,18,10,20,11,24,29,2,3,6,2,42,1,70;
    // digit sums (div36 + mod36) 2,18,10,20,11,24,29,2,3,6,2,7,1,35 = 170; 170 mod 36 = 26;
    // (36 - 26) mod 36 = 10 → 'A'.
    expect(computeGstinCheckChar('29AABCT1332L1Z')).toBe('A');
  });

  it('accepts lower case and rejects bad input', () => {
    expect(computeGstinCheckChar('27aapfu0939f1z')).toBe('V');
    expect(() => computeGstinCheckChar('27AAPFU0939F1')).toThrow();
    expect(() => computeGstinCheckChar('27AAPFU0939F1-')).toThrow();
  });
});

describe('validateGstin', () => {
  it('accepts valid GSTINs and returns state code and PAN', () => {
    expect(validateGstin('27AAPFU0939F1ZV')).toEqual({ ok: true, stateCode: '27', pan: 'AAPFU0939F' });
    expect(validateGstin('29AABCT1332L1ZA')).toEqual({ ok: true, stateCode: '29', pan: 'AABCT1332L' });
    expect(validateGstin('  29aabct1332l1za ')).toMatchObject({ ok: true });
  });

  it('accepts every state code on the list, including 97 and 99', () => {
    for (const code of ['01', '07', '26', '37', '38', '97', '99']) {
      expect(isValidGstin(appendCheckChar(`${code}AABCT1332L1Z`))).toBe(true);
    }
  });

  it('reports length problems', () => {
    const result = validateGstin('29AABCT1332L1Z');
    expect(result).toMatchObject({ ok: false, problem: 'length' });
    expect(validateGstin('')).toMatchObject({ ok: false, problem: 'length' });
    expect(validateGstin('29AABCT1332L1ZAX')).toMatchObject({ ok: false, problem: 'length' });
  });

  it('reports format problems with a pointed message', () => {
    const noZ = validateGstin('29AABCT1332L1XA');
    expect(noZ).toMatchObject({ ok: false, problem: 'format' });
    if (!noZ.ok) expect(noZ.message).toContain('Z in position 14');
    expect(validateGstin('2AAABCT1332L1ZA')).toMatchObject({ ok: false, problem: 'format' });
    expect(validateGstin('29AABC11332L1ZA')).toMatchObject({ ok: false, problem: 'format' });
    expect(validateGstin('29AABCT1332L0ZA')).toMatchObject({ ok: false, problem: 'format' });
    expect(validateGstin('29AABCT1332L1Z-')).toMatchObject({ ok: false, problem: 'format' });
  });

  it('rejects state codes that do not exist even with a correct check character', () => {
    for (const code of ['00', '39', '40', '98']) {
      const gstin = appendCheckChar(`${code}AABCT1332L1Z`);
      expect(validateGstin(gstin)).toMatchObject({ ok: false, problem: 'state_code' });
    }
  });

  it('detects every single-character substitution in a valid GSTIN', () => {
    const valid = '29AABCT1332L1ZA';
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let checked = 0;
    for (let i = 0; i < 15; i++) {
      for (const ch of alphabet) {
        if (ch === valid[i]) continue;
        const typo = valid.slice(0, i) + ch + valid.slice(i + 1);
        expect(isValidGstin(typo), typo).toBe(false);
        checked++;
      }
    }
    expect(checked).toBe(15 * 35);
  });

  it('rejects a wrong check character and single-character typos', () => {
    expect(validateGstin('27AAPFU0939F1ZW')).toMatchObject({ ok: false, problem: 'checksum' });
    expect(validateGstin('29AABCT1332L1ZB')).toMatchObject({ ok: false, problem: 'checksum' });
    // Typo in the body: 1332 → 1333.
    expect(validateGstin('29AABCT1333L1ZA')).toMatchObject({ ok: false, problem: 'checksum' });
    // Adjacent transposition: AB → BA.
    expect(validateGstin('29ABACT1332L1ZA')).toMatchObject({ ok: false, problem: 'checksum' });
  });
});

describe('GSTIN helpers', () => {
  it('GSTIN_PATTERN is the regular taxpayer shape', () => {
    expect(GSTIN_PATTERN.test('27AAPFU0939F1ZV')).toBe(true);
    expect(GSTIN_PATTERN.test('27AAPFU0939F1YV')).toBe(false);
  });

  it('normalizeGstinInput cleans typing and pasting', () => {
    expect(normalizeGstinInput(' 29-aabct 1332 l1za ')).toBe('29AABCT1332L1ZA');
    expect(normalizeGstinInput('29AABCT1332L1ZA999')).toBe('29AABCT1332L1ZA');
    expect(normalizeGstinInput('')).toBe('');
  });

  it('panFromGstin returns the PAN only from a valid GSTIN', () => {
    expect(panFromGstin('27AAPFU0939F1ZV')).toBe('AAPFU0939F');
    expect(panFromGstin('27AAPFU0939F1ZW')).toBeNull();
    expect(panFromGstin('junk')).toBeNull();
  });

  it('isValidPan checks shape and holder type', () => {
    expect(isValidPan('AAPFU0939F')).toBe(true);
    expect(isValidPan('AABCT1332L')).toBe(true);
    expect(isValidPan('abcpe1234f')).toBe(true);
    expect(isValidPan('AAAXA1234A')).toBe(false); // X is not a holder type
    expect(isValidPan('AAPFU093F')).toBe(false);
    expect(isValidPan('AAPF10939F')).toBe(false);
  });
});

describe('repairGstin', () => {
  it('returns a valid GSTIN unchanged (after cleaning)', () => {
    expect(repairGstin('29AABCT1332L1ZA')).toBe('29AABCT1332L1ZA');
    expect(repairGstin('29 AABCT 1332 L1ZA')).toBe('29AABCT1332L1ZA');
  });

  it('fixes look-alike characters by position', () => {
    expect(repairGstin('27AAPFUO939F1ZV')).toBe('27AAPFU0939F1ZV'); // O read for 0 in a digit slot
    expect(repairGstin('29AA8CT1332L1ZA')).toBe('29AABCT1332L1ZA'); // 8 read for B in a letter slot
    expect(repairGstin('29AABCTI332L12A')).toBe('29AABCT1332L1ZA'); // I for 1, 2 for Z
    expect(repairGstin('2GAABCT1332L1ZA')).toBeNull(); // G→6 gives state 26 whose checksum fails
  });

  it('tries both readings of the entity number and check character', () => {
    const gstin = appendCheckChar('29AABCT1332L1Z');
    // Find a body whose check character is a digit with a letter look-alike, e.g. 0/O.
    let sample: string | null = null;
    for (let n = 1000; n < 9999 && sample === null; n++) {
      const candidate = appendCheckChar(`29AABCT${n}L1Z`);
      if (candidate.endsWith('0')) sample = candidate;
    }
    expect(sample).not.toBeNull();
    expect(repairGstin(`${sample!.slice(0, 14)}O`)).toBe(sample);
    expect(repairGstin(gstin)).toBe(gstin);
  });

  it('keeps the entity/check pair as printed over a twin that needs more look-alike readings', () => {
    // Entity 1 vs I changes the checksum sum by 17, exactly the gap between check characters 1 and I,
    // so a body whose check is I has a twin (entity I, check 1) that is also valid.
    let body: string | null = null;
    for (let n = 1000; n < 9999 && body === null; n++) {
      const candidate = `29AABCT${n}L1Z`;
      if (String(n).includes('0') && computeGstinCheckChar(candidate) === 'I') body = candidate;
    }
    expect(body).not.toBeNull();
    const gstin = `${body}I`;
    const twin = `${body!.slice(0, 12)}IZ1`;
    expect(isValidGstin(gstin)).toBe(true);
    expect(isValidGstin(twin)).toBe(true);
    // A 0 misread as O forces a repair; the printed "1…I" reading wins over the twin.
    const misread = gstin.replace(/^(.{7}[1-9]*)0/, '$1O');
    expect(isValidGstin(misread)).toBe(false);
    expect(repairGstin(misread)).toBe(gstin);
  });

  it('refuses to choose between two readings that are equally likely', () => {
    // Two letters printed as O where the checksum weighs both alike (positions 3 and 5): either
    // could be a misread Q, and both single swaps validate; the printed reading itself does not.
    let printed: string | null = null;
    for (let n = 1000; n < 9999 && printed === null; n++) {
      const body = `29OAOCT${n}L1Z`;
      const a = computeGstinCheckChar(`29QAOCT${n}L1Z`);
      if (computeGstinCheckChar(`29OAQCT${n}L1Z`) === a && computeGstinCheckChar(body) !== a)
        printed = `${body}${a}`;
    }
    expect(printed).not.toBeNull();
    expect(isValidGstin(printed!)).toBe(false);
    expect(repairGstin(printed!)).toBeNull();
  });

  it('reads OCR damage seen on scans: a glyph read twice, a bracket for J, U read as V', () => {
    // Build valid GSTINs from bodies so the check characters are right.
    const g = (body: string) => `${body}${computeGstinCheckChar(body)}`;
    const a = g('07FZACD4754D1Z');
    // "7" read twice as "7T" after the state code; 1Z read as 12.
    expect(repairGstin(`07T${a.slice(2, 12)}12${a[14]}`)).toBe(a);
    const b = g('07AHXCP5409M1Z');
    // "5" read as both "S5".
    expect(repairGstin(`07AHXCPS${b.slice(7)}`)).toBe(b);
    const c = g('09JPUCC6712C2Z');
    expect(repairGstin(`09)${c.slice(3)}`)).toBe(c);
    // A stray bracket before the J, both kept.
    expect(repairGstin(`09)${c.slice(2)}`)).toBe(c);
    // Lower-case z read beside Z.
    const d = g('06BQFCC8254G1Z');
    expect(repairGstin(`${d.slice(0, 13)}z${d.slice(13)}`)).toBe(d);
  });

  it('rarely turns an unrelated misread into a different valid GSTIN', () => {
    // Valid GSTINs with one character replaced at random (not a look-alike): a repair must mostly
    // refuse rather than pick another taxpayer. Deterministic pseudo-random, so the rate is stable.
    let seed = 7;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const pick = (s: string) => s[Math.floor(rnd() * s.length)]!;
    const L = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const D = '0123456789';
    let wrong = 0;
    let tried = 0;
    for (let i = 0; i < 600; i++) {
      const body = `${String(1 + Math.floor(rnd() * 37)).padStart(2, '0')}${pick(L)}${pick(L)}${pick(L)}${pick('PCHFATBLJG')}${pick(L)}${pick(D)}${pick(D)}${pick(D)}${pick(D)}${pick(L)}${pick('123456789')}Z`;
      const gstin = `${body}${computeGstinCheckChar(body)}`;
      const pos = Math.floor(rnd() * 15);
      const typo = gstin.slice(0, pos) + pick(L + D) + gstin.slice(pos + 1);
      if (typo === gstin) continue;
      tried++;
      const r = repairGstin(typo);
      if (r !== null && r !== gstin) wrong++;
    }
    expect(wrong / tried).toBeLessThan(0.1);
  });

  it('returns null when no single variant passes', () => {
    expect(repairGstin('29AABCT1333L1ZA')).toBeNull();
    expect(repairGstin('29AABCT1332L1Z')).toBeNull();
    expect(repairGstin('')).toBeNull();
  });
});
