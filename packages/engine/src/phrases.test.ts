import { describe, expect, it } from 'vitest';
import { phraseRegex, phraseSource, wordPhrases } from './phrases.ts';

/** The text a phrase matches at the start of `text`, or null. */
const read = (phrase: string, text: string, options = {}) =>
  phraseRegex(phrase, options).exec(text)?.[0] ?? null;

describe('phrase notation', () => {
  it('compiles words to themselves, ending at a word boundary', () => {
    expect(phraseSource('place of supply')).toBe(String.raw`place of supply\b`);
    expect(read('place of supply', 'place of supply: (29)')).toBe('place of supply');
    expect(read('pos', 'posted on')).toBeNull();
    expect(read('pos', 'pos 29')).toBe('pos');
  });

  it('matches at the start of the text only', () => {
    expect(read('due', 'payment due')).toBeNull();
  });

  it('reads [a|b] as one of several wordings, each ending at a word boundary', () => {
    expect(phraseSource('supply [place|state]')).toBe(String.raw`supply (?:place\b|state\b)`);
    expect(read('supply [place|state]', 'supply statement')).toBeNull();
  });

  it('lets an optional word take the space after it, or before it when last', () => {
    expect(phraseSource('[tax|gst]? invoice')).toBe(String.raw`(?:(?:tax|gst) )?invoice\b`);
    expect(phraseSource('goods receipt [note]?')).toBe(String.raw`goods receipt(?: note)?\b`);
    expect(read('[tax]? invoice', 'invoice no')).toBe('invoice');
    expect(read('[tax]? invoice', 'tax invoice no')).toBe('tax invoice');
    expect(read('[payment]? due [date|on|by]?', 'payment due date 4')).toBe('payment due date');
    expect(read('[payment]? due [date|on|by]?', 'due onwards')).toBe('due');
  });

  it('keeps an optional part glued to a word glued', () => {
    expect(phraseSource('round[ing|ed]?[-off]? total')).toBe(
      String.raw`round(?:ing|ed)?(?:[- ]?off)? total\b`,
    );
    expect(read('[mode/]?terms of payment', 'mode/terms of payment')).toBe('mode/terms of payment');
  });

  it('reads ~ as a space OCR may drop and - as a hyphen, a space or nothing', () => {
    expect(phraseSource('invoice~no')).toBe(String.raw`invoice ?no\b`);
    expect(['sub-total', 'sub total', 'subtotal'].map((t) => read('sub-total', t))).toEqual([
      'sub-total',
      'sub total',
      'subtotal',
    ]);
  });

  it('takes an abbreviation dot when printed, after the word boundary', () => {
    expect(phraseSource('veh. no.')).toBe(String.raw`veh\.? no\b\.?`);
    expect(read('[date|dt].', 'dt. 12/03/2026')).toBe('dt.');
    expect(read('[date|dt].', 'dt 12/03/2026')).toBe('dt');
  });

  it('reads dots between letters as an initialism, spaced or not', () => {
    expect(phraseSource('p.o. date')).toBe(String.raw`p\.? ?o\.? date\b`);
    for (const t of ['p.o. date', 'p. o. date', 'po date', 'p.o date']) expect(read('p.o. date', t)).toBe(t);
  });

  it("reads 's as a possessive in any printed form", () => {
    for (const t of ["buyer's order", 'buyers order', "buyer' order", 'buyer order'])
      expect(read("buyer's order", t)).toBe(t);
  });

  it('spells out named parts', () => {
    const parts = { no: '[no|number|#].' };
    expect(phraseSource('bill~{no}', { parts })).toBe(String.raw`bill ?(?:no\b|number\b|#)\.?`);
    expect(read('bill~{no}', 'bill # 12', { parts })).toBe('bill #');
    expect(read('bill~{no}', 'bill no. 12', { parts })).toBe('bill no.');
    expect(() => phraseSource('bill {nr}', { parts })).toThrow(/no part/);
  });

  it('excludes what must not follow, the separator before ! included', () => {
    expect(phraseSource('vehicle !type')).toBe(String.raw`vehicle\b(?! type\b)`);
    expect(phraseSource("party!'s*~![order|po]")).toBe(String.raw`party\b(?!'s)(?! ?(?:order\b|po\b))`);
    expect(read('purchase order !date*', 'purchase order dated 4 may')).toBeNull();
    expect(read('purchase order !date*', 'purchase order 4500012')).toBe('purchase order');
    expect(read('total ![tax|gst]', 'total taxes 12')).toBe('total');
    expect(read('total ![tax|gst]', 'total tax 12')).toBeNull();
  });

  it('reads a word or group ending in * as any word starting so', () => {
    expect(phraseSource('[freight] ![to|from]*')).toBe(String.raw`freight\b(?! (?:to|from))`);
  });

  it('takes a lead word with or without a colon, a list number, a figure after the last letter', () => {
    const add = { lead: ['add', 'less'] };
    for (const t of ['add: cgst', 'add : cgst', 'less cgst', 'cgst']) expect(read('cgst', t, add)).toBe(t);
    expect(read('payment terms', '4. payment terms', { numbered: true })).toBe('4. payment terms');
    expect(read('cgst', 'cgst9%')).toBeNull();
    expect(read('cgst', 'cgst9%', { end: 'letter' })).toBe('cgst');
    expect(read('cgst', 'cgsta', { end: 'letter' })).toBeNull();
  });

  it('escapes characters a regex would read', () => {
    expect(phraseSource('grn/mrn (rs)')).toBe(String.raw`grn\/mrn \(rs\)`);
    expect(read('p~&~f', 'p & f charges')).toBe('p & f');
  });

  it('rejects a phrase it cannot read', () => {
    expect(() => phraseSource('[tax|gst invoice')).toThrow(/unclosed/);
    expect(() => phraseSource('tax]')).toThrow(/unexpected/);
  });
});

describe('wordPhrases', () => {
  it('matches any phrase as whole words, case-insensitively', () => {
    const title = wordPhrases(['tax invoice', 'bill of supply']);
    expect(title.test('TAX INVOICE')).toBe(true);
    expect(title.test('Bill of Supply No. 7')).toBe(true);
    expect(title.test('taxinvoice')).toBe(false);
    expect(title.test('bill of supplyx')).toBe(false);
  });

  it('reads a dot in a phrase as optional (abbreviations)', () => {
    const grn = wordPhrases(['g.r.n.']);
    for (const t of ['GRN', 'G.R.N.', 'G.R.N', 'g.rn']) expect(grn.test(t)).toBe(true);
  });

  it('escapes the other characters of a regular expression', () => {
    const p = wordPhrases(['a+b', 'e-invoice']);
    expect(p.test('a+b')).toBe(true);
    expect(p.test('aab')).toBe(false);
    expect(p.test('E-Invoice')).toBe(true);
  });

  it('adds flags: a global pattern counts matches', () => {
    const votes = wordPhrases(['received', 'receipt'], { global: true });
    expect('Received 4, receipt 2, RECEIVED'.match(votes)).toHaveLength(3);
  });
});

describe('wordPhrases at the start of a text', () => {
  it('matches whole phrases at the start only, whatever their case', () => {
    const re = wordPhrases(['gst no', 'ph', 'reg. office'], { atStart: true });
    expect(re.test('GST No. 29')).toBe(true);
    expect(re.test('Ph: 98200 00000')).toBe(true);
    expect(re.test('Reg. Office: Pune')).toBe(true);
    expect(re.test('Reg Office: Pune')).toBe(true);
    expect(re.test('Phone 98200')).toBe(false);
    expect(re.test('Regd office')).toBe(false);
    expect(re.test('Our GST No')).toBe(false);
  });

  it('matches a possessive in any printed form, but never inside a word', () => {
    const re = wordPhrases(['bill to', "company's"]);
    expect(re.test("Company's GSTIN")).toBe(true);
    expect(re.test('Companys GSTIN')).toBe(true);
    expect(re.test('Details (Bill To)')).toBe(true);
    expect(re.test('Billto')).toBe(false);
  });
});

describe('wordPhrases over number words', () => {
  it('matches any of the words as a whole word, whatever the case', () => {
    const re = wordPhrases(['lakh', 'lakhs', 'tax amount']);
    expect(re.test('Rupees Two LAKH only')).toBe(true);
    expect(re.test('Five Lakhs')).toBe(true);
    expect(re.test('Total Tax Amount (in words)')).toBe(true);
    // Inside a longer word it is no match.
    expect(re.test('Lakhsmi Traders')).toBe(false);
    expect(re.test('Taxamount')).toBe(false);
  });
});
