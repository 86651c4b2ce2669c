import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.ts';
import { type ComplianceCommand, parseComplianceArgs, runCompliance } from './cli-compliance.ts';

// Made-up suppliers: a Karnataka company (and its Maharashtra registration) and a person.
const CO = '29AAGCS4821K1Z3';
const CO_MH = '27AAGCS4821K1Z9';
const PERSON = '29BBHPR7731M1Z2';

const result = (file: string, fields: object, lineItems: object[]) =>
  JSON.stringify({
    contract: 'extraction/v1',
    file,
    documentType: 'invoice',
    fields,
    lineItems,
    error: null,
  });
const bill = (
  file: string,
  gstin: string,
  number: string,
  date: string,
  taxable: number,
  hsnSac: string,
  intra = true,
) => {
  const tax = Math.round(taxable * 18) / 100;
  return result(
    file,
    {
      documentNumber: number,
      documentDate: date,
      vendorName: `Supplier ${gstin.slice(2, 7)} & Co.`,
      vendorGstin: gstin,
      buyerStateCode: '29',
      placeOfSupply: '29',
      taxableValue: taxable,
      cgst: intra ? tax / 2 : null,
      sgst: intra ? tax / 2 : null,
      igst: intra ? null : tax,
      cess: null,
      roundOff: null,
      total: taxable + tax,
    },
    [{ description: 'work', hsnSac, amount: taxable, gstRate: 18 }],
  );
};

let dir: string;
const path = (name: string) => join(dir, name);
const lines = [
  bill('inv/a.pdf', CO, 'SF/25-26/0101', '2025-08-14', 40_000, '995411'),
  bill('inv/b.pdf', CO_MH, 'SF/25-26/0102', '2025-08-20', 70_000, '995411', false),
  bill('inv/c.pdf', PERSON, 'RT-9', '2025-09-02', 12_000, '996511'),
  bill('scans/a.jpg', CO, 'sf-101', '2025-08-14', 40_000, '995411'),
  bill('inv/d.pdf', PERSON, 'RT-10', '2025-09-03', 100, '996511').replace('"total":118', '"total":900'),
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bahi-compliance-'));
  await writeFile(path('one.ndjson'), `${lines.slice(0, 3).join('\n')}\n`);
  await writeFile(path('two.ndjson'), `${lines.slice(3).join('\n')}\n`);
  await writeFile(path('all-reversed.ndjson'), `${[...lines].reverse().join('\n')}\n`);
  const b2b = [
    {
      ctin: CO,
      inv: [
        {
          inum: 'SF-101',
          dt: '14-08-2025',
          pos: '29',
          itcavl: 'Y',
          rsn: '',
          txval: 40_000,
          igst: 0,
          cgst: 3600,
          sgst: 3600,
          cess: 0,
        },
      ],
    },
  ];
  await writeFile(path('2b-082025.json'), JSON.stringify({ data: { rtnprd: '082025', docdata: { b2b } } }));
  await writeFile(
    path('2b-092025.json'),
    JSON.stringify({ data: { rtnprd: '092025', docdata: { b2b: [] } } }),
  );
  await writeFile(
    path('vendors.json'),
    JSON.stringify([{ pan: 'BBHPR7731M', gstin: PERSON, panOperative: false }]),
  );
  await writeFile(
    path('ledgers.json'),
    JSON.stringify({ parties: { [CO]: 'Hesaraghatta (KA)' }, roundOff: 'Rounding Off' }),
  );
  await writeFile(path('bad.json'), '{ not json');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(command: ComplianceCommand, argv: string[]) {
  const args = parseComplianceArgs(command, argv);
  if (typeof args === 'string') throw new Error(args);
  let out = '';
  let err = '';
  const code = await runCompliance(
    args,
    (t) => {
      out += t;
    },
    (t) => {
      err += t;
    },
  );
  return { code, out, err };
}

describe('bahi gstr2b | tds | tally arguments', () => {
  it('reads each command’s options and refuses what it does not know', () => {
    expect(
      parseComplianceArgs('gstr2b', [
        '--2b',
        'a.json',
        '--2b=b.json',
        '--tolerance-amount',
        '2.5',
        'x.ndjson',
      ]),
    ).toMatchObject({
      gstr2b: ['a.json', 'b.json'],
      toleranceRupees: 2.5,
      books: ['x.ndjson'],
    });
    expect(
      parseComplianceArgs('tds', ['--buyer-turnover-above-10cr', '--vendors', 'v.json', 'x.pdf']),
    ).toMatchObject({
      buyerTurnoverAbove10cr: true,
      vendors: 'v.json',
    });
    expect(parseComplianceArgs('gstr2b', ['x.ndjson'])).toMatch(/missing --2b/);
    expect(parseComplianceArgs('gstr2b', ['--2b', 'a.json'])).toMatch(/missing BOOKS/);
    expect(parseComplianceArgs('gstr2b', ['--2b', 'a.json', '--tolerance-amount', '-1', 'x'])).toMatch(
      /at least 0/,
    );
    expect(parseComplianceArgs('tds', ['--ledgers', 'l.json', 'x'])).toMatch(/unknown option/);
    expect(parseComplianceArgs('tally', ['--ledgers'])).toMatch(/needs a value/);
  });

  it('exits 2 on a usage error, from the command line or an option file, and 0 otherwise', async () => {
    expect(await main(['gstr2b', path('one.ndjson')])).toBe(2);
    expect(await main(['tally', '--fast', path('one.ndjson')])).toBe(2);
    expect((await run('gstr2b', ['--2b', path('bad.json'), path('one.ndjson')])).code).toBe(2);
    expect((await run('gstr2b', ['--2b', path('vendors.json'), path('one.ndjson')])).err).toMatch(
      /no return period/,
    );
    expect((await run('tds', ['--vendors', path('missing.json'), path('one.ndjson')])).code).toBe(2);
    expect((await run('tally', ['--ledgers', path('vendors.json'), path('one.ndjson')])).code).toBe(2);
    expect((await run('tds', [path('one.ndjson')])).code).toBe(0);
  });
});

describe('bahi gstr2b | tds | tally output', () => {
  it('gstr2b: one line per book invoice in input order, then unclaimed 2B documents', async () => {
    const { code, out } = await run('gstr2b', [
      '--2b',
      path('2b-082025.json'),
      '--2b',
      path('2b-092025.json'),
      path('one.ndjson'),
      path('two.ndjson'),
    ]);
    expect(code).toBe(0);
    const rows = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.file, r.status])).toEqual([
      ['inv/a.pdf', 'matched'],
      ['inv/b.pdf', 'missing_in_2b'],
      ['inv/c.pdf', 'missing_in_2b'],
      ['scans/a.jpg', 'duplicate_in_books'],
      ['inv/d.pdf', 'missing_in_2b'],
    ]);
  });

  it('tds: an inoperative PAN at 20 %, the copy counted once', async () => {
    const { out } = await run('tds', [
      '--vendors',
      path('vendors.json'),
      path('two.ndjson'),
      path('one.ndjson'),
    ]);
    const rows = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.file, r.tds])).toEqual([
      ['inv/a.pdf', 800],
      ['scans/a.jpg', 0],
      ['inv/b.pdf', 1400],
      ['inv/c.pdf', 0],
      ['inv/d.pdf', 0],
    ]);
    expect(rows[3].sections[0]).toMatchObject({ section: '194C', rate: 20 });
  });

  it('tally: an envelope of vouchers; the invoice that does not add up reported on stderr, exit 0', async () => {
    const { code, out, err } = await run('tally', [
      '--ledgers',
      path('ledgers.json'),
      path('one.ndjson'),
      path('two.ndjson'),
    ]);
    expect(code).toBe(0);
    expect(out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<ENVELOPE>/);
    expect(out.match(/<VOUCHER /g)).toHaveLength(4);
    expect(out).toContain('<PARTYLEDGERNAME>Hesaraghatta (KA)</PARTYLEDGERNAME>');
    expect(err).toMatch(/inv\/d\.pdf \(RT-10\) not written: amounts do not add up/);
  });

  it('gives the same output for the same inputs in any order', async () => {
    const split = ['one.ndjson', 'two.ndjson'].map(path);
    const reversed = [path('all-reversed.ndjson')];
    const twoB = ['--2b', path('2b-092025.json'), '--2b', path('2b-082025.json')];
    const byFile = (out: string) =>
      Object.fromEntries(
        out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
          .map((r) => [r.file ?? r.match.inum, r]),
      );
    const g1 = await run('gstr2b', [
      '--2b',
      path('2b-082025.json'),
      '--2b',
      path('2b-092025.json'),
      ...split,
    ]);
    const g2 = await run('gstr2b', [...twoB, ...reversed]);
    expect(byFile(g2.out)).toEqual(byFile(g1.out));
    for (const command of ['tds', 'tally'] as const) {
      const a = await run(command, split);
      const b = await run(command, reversed);
      expect(b.out).toBe(a.out);
    }
  });

  it('reports a document that cannot be read and goes on', async () => {
    const { code, out, err } = await run('tds', [path('nowhere.pdf'), path('one.ndjson')]);
    expect(code).toBe(0);
    expect(err).toMatch(/nowhere\.pdf could not be read/);
    expect(out.trim().split('\n')).toHaveLength(3);
  });
});
