import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textPdf } from '../test/pdf-builder.ts';

const bin = new URL('../bin/bahi.mjs', import.meta.url).pathname;
const bahi = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'bahi-learn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A vendor whose invoices call their number "Folio": the rules read no number from it.
const invoice = (ref: string, date: string) =>
  textPdf([
    [
      'ACME TOOLS PRIVATE LIMITED',
      'GSTIN : 27AAECM8421K1Z8',
      'TAX INVOICE',
      `Folio ${ref}`,
      `Invoice Date : ${date}`,
      'Taxable Value : 1,000.00',
      'CGST @ 9% : 90.00',
      'SGST @ 9% : 90.00',
      'Total : 1,180.00',
    ],
  ]);

describe('bahi learn and extract --memory', () => {
  it("reads a vendor's next invoice with what a correction taught", () => {
    const first = join(dir, 'first.pdf');
    const second = join(dir, 'second.pdf');
    writeFileSync(first, invoice('AT/101', '05/01/2025'));
    writeFileSync(second, invoice('AT/117', '19/02/2025'));
    const memory = join(dir, 'memory');

    const read = JSON.parse(bahi('extract', '--type', 'invoice', first).stdout);
    const corrected = join(dir, 'first.corrected.json');
    writeFileSync(
      corrected,
      JSON.stringify({ ...read, fields: { ...read.fields, documentNumber: 'AT/101' } }),
    );
    const learn = bahi('learn', '--memory', memory, first, corrected);
    expect(learn.status, learn.stderr).toBe(0);
    expect(JSON.parse(learn.stdout).recipes).toContain('documentNumber');
    expect(readdirSync(memory)).toHaveLength(1);

    const out = JSON.parse(bahi('extract', '--type', 'invoice', '--memory', memory, second).stdout);
    expect(out.fields.documentNumber).toBe('AT/117');
    expect(out.provenance.documentNumber.learnedFrom).toBe('AT/101');
    const without = JSON.parse(bahi('extract', '--type', 'invoice', second).stdout);
    expect(without.fields.documentNumber).not.toBe('AT/117');
  });

  it('says what is wrong with its input', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"not":"a result"}');
    const r = bahi('learn', '--memory', join(dir, 'm2'), join(dir, 'first.pdf'), bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is not an extraction/v1 result');
    expect(bahi('learn', join(dir, 'first.pdf')).status).toBe(2);
  });
});
