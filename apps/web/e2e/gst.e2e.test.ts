import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  createUploadFlow,
  createUser,
  expectCount,
  expectText,
  getApiJson,
  type Page,
  screenshot,
  setupApp,
  uploadAndRun,
} from './support/harness.ts';

// GST & TDS: two invoices of the synthetic p2p set are read by a flow; the test then writes a small
// GSTR-2B JSON of its own from what Bahi read (one document as filed, one with ₹500 more taxable value,
// one the books do not have), uploads it on the GST page, opens the mismatch beside its invoice,
// accepts it with a reason, exports the IMS list, and sees an invoice's TDS with its reason. Every
// screen passes axe-core with no serious or critical finding.

const p2p = fileURLToPath(new URL('./fixtures/p2p/', import.meta.url));
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Serious and critical axe-core findings (WCAG 2.1 A/AA, best practices) on what the page shows now. */
async function axeFindings(page: Page): Promise<string[]> {
  // A toast fading out reads as low contrast: audit the page once they are gone.
  await expectCount(page.locator('[data-sonner-toast]'), 0, 15_000);
  await page.waitForTimeout(400);
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(`${axeSource}\n;0`);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    })) as { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

interface Fields {
  vendorGstin: string;
  documentNumber: string;
  documentDate: string;
  taxableValue: number;
  igst?: number | null;
  cgst?: number | null;
  sgst?: number | null;
}

/** `2025-08-14` → `14-08-2025`, as the portal writes dates. */
const portalDate = (iso: string) => iso.split('-').reverse().join('-');

/** A GSTR-2B JSON (made up here) for the invoices' month: the first as read, the second ₹500 dearer, one more. */
function make2b(first: Fields, second: Fields): { json: string; period: string } {
  const period = `${first.documentDate.slice(5, 7)}${first.documentDate.slice(0, 4)}`;
  const inv = (f: Fields, extra = 0) => ({
    inum: f.documentNumber,
    dt: portalDate(f.documentDate),
    val: 0,
    txval: f.taxableValue + extra,
    igst: f.igst ?? 0,
    cgst: f.cgst ?? 0,
    sgst: f.sgst ?? 0,
    cess: 0,
    itcavl: 'Y',
  });
  const b2b = [
    { ctin: first.vendorGstin, trdnm: 'Supplier One', inv: [inv(first)] },
    { ctin: second.vendorGstin, trdnm: 'Supplier Two', inv: [inv(second, 500)] },
    {
      ctin: '19AAKCP8642M1ZQ',
      trdnm: 'Padma Logistics',
      inv: [
        {
          inum: 'PL-0077',
          dt: portalDate(first.documentDate),
          val: 1180,
          txval: 1000,
          igst: 180,
          cgst: 0,
          sgst: 0,
          cess: 0,
        },
      ],
    },
  ];
  return {
    json: JSON.stringify({ data: { gstin: '27AAACB0000A1Z5', rtnprd: period, docdata: { b2b } } }),
    period,
  };
}

async function readInvoices(page: Page, flowId: string): Promise<Fields[]> {
  const list = await getApiJson<{ items: Array<{ id: string }> }>(page, `/api/flows/${flowId}/documents`);
  const out: Fields[] = [];
  for (const d of list.body.items) {
    const doc = await getApiJson<{ extraction: { fields: Fields } }>(page, `/api/documents/${d.id}`);
    out.push(doc.body.extraction.fields);
  }
  return out.sort((a, b) => a.documentNumber.localeCompare(b.documentNumber));
}

describe('GST & TDS', () => {
  const app = setupApp();

  it('matches an uploaded GSTR-2B with the books, accepts a mismatch with a reason, exports the IMS list, shows TDS', async () => {
    const page = await app.newPage({ viewport: DESKTOP });
    await createUser(page, { emailPrefix: 'gst' });
    const flowId = await createUploadFlow(page, 'Purchase bills', 'INVOICE');
    await uploadAndRun(page, flowId, {
      'invoice-005.pdf': join(p2p, 'invoice-005.pdf'),
      'invoice-010.pdf': join(p2p, 'invoice-010.pdf'),
    });
    const [first, second] = await readInvoices(page, flowId);
    const { json, period } = make2b(first!, second!);

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'GST & TDS' }).click();
    await page.getByRole('heading', { name: "Upload the month's GSTR-2B" }).waitFor();
    await screenshot(page, 'gst-01-empty');

    // A file that is not a GSTR-2B is refused in words.
    const input = page.getByTestId('gstr2b-input');
    await input.setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"hello":1}'),
    });
    await expectText(page.locator('[data-sonner-toast]').first(), /not a GSTR-2B/);
    await input.setInputFiles({
      name: `GSTR2B_${period}.json`,
      mimeType: 'application/json',
      buffer: Buffer.from(json),
    });
    await expectText(page.getByTestId('tab-mismatch'), /Mismatch \(1\)/);
    await expectText(page.getByTestId('tab-matched'), /Matched \(1\)/);
    await expectText(page.getByTestId('tab-missing_in_books'), /Missing in books \(1\)[\s\S]*ITC ₹180\.00/);
    await expectText(page.getByTestId('tab-missing_in_2b'), /Missing in 2B \(0\)/);
    // The same file again changes nothing.
    await input.setInputFiles({
      name: 'again.json',
      mimeType: 'application/json',
      buffer: Buffer.from(json),
    });
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'already uploaded' }).first(),
      /nothing changed/,
    );
    await expectText(page.getByTestId('tab-mismatch'), /Mismatch \(1\)/);

    // The mismatch beside its invoice: the taxable value is marked as differing.
    const row = page.getByRole('list', { name: 'Mismatch' }).getByTestId('gst-row');
    await row.getByRole('button', { expanded: false }).click();
    const detail = row.getByTestId('gst-detail');
    const sideBySide = detail.getByRole('table', { name: 'Invoice and GSTR-2B side by side' });
    await expectText(sideBySide.locator('tr[data-differs]'), /Taxable value\s*differs/);
    const invoiceLink = detail.getByRole('link', {
      name: new RegExp(`Open the invoice ${second!.documentNumber.replace(/[/\\.]/g, '.')}`),
    });
    expect(await invoiceLink.getAttribute('href')).toMatch(new RegExp(`^/flows/${flowId}/documents/`));
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-02-mismatch');

    // Accepting needs a reason in words.
    await detail.getByRole('button', { name: 'Accept difference' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accept the difference' });
    await dialog.getByRole('button', { name: 'Accept the difference' }).click();
    await expectText(dialog, /at least 10 characters/);
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-03-reason');
    await dialog.getByLabel(/Why\?/).fill('Supplier billed ₹500 freight separately; credit note promised');
    await dialog.getByRole('button', { name: 'Accept the difference' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectText(page.getByTestId('tab-mismatch'), /Mismatch \(0\)/);
    await expectText(page.getByTestId('tab-matched'), /Matched \(2\)/);
    await page.getByTestId('tab-matched').click();
    const accepted = page
      .getByRole('list', { name: 'Matched' })
      .getByTestId('gst-row')
      .filter({ hasText: 'Accepted' });
    await accepted.getByRole('button', { expanded: false }).click();
    await expectText(
      accepted.getByRole('list', { name: 'Decisions' }),
      /Asha Verma accepted the difference .*freight separately/,
    );
    await screenshot(page, 'gst-04-accepted');

    // The IMS list: every 2B document with its suggested action.
    const href = (await page.getByTestId('download-ims').getAttribute('href')) ?? '';
    expect(href).toContain(`period=${period}`);
    const download = await page.context().request.get(href);
    expect(download.status()).toBe(200);
    const body = await download.body();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
    );
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('IMS Actions');
    const actions = (sheet.getSheetValues().slice(2) as unknown[][]).map((r) => [r[3], r[11]]);
    expect(actions).toEqual(
      expect.arrayContaining([
        [first!.documentNumber, 'Accept'],
        [second!.documentNumber, 'Accept'],
        ['PL-0077', 'Pending'],
      ]),
    );

    // At phone width the tabs wrap and the page stays readable.
    await page.setViewportSize(PHONE);
    await page.getByTestId('tab-missing_in_books').click();
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-05-phone');

    // TDS: with the buyer's turnover above ₹10 crore, goods invoices fall under 194Q, with the reason.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('tab', { name: 'TDS' }).click();
    await page.getByLabel(/turnover last financial year was above ₹10 crore/).check();
    // The newest month with an invoice is shown (the two invoices may fall in different months).
    await expect.poll(() => page.getByTestId('tds-invoice').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expectText(
      page.getByTestId('tds-section').first(),
      /194Q on ₹[\d,.]+ at 0\.1% = ₹0\.00 — purchases this year within ₹50,00,000/,
    );
    await expectText(page.getByTestId('tds-summary'), /to deposit by 07\/\d\d\/\d{4}/);
    // A vendor whose every line is a contract (194C): a company's PAN pays 2 %, the reason says why.
    const profiles = page.getByTestId('vendor-tds');
    const vendorCount = await profiles.count();
    for (let i = 0; i < vendorCount; i++) {
      await profiles
        .nth(i)
        .getByRole('button', { name: /Edit TDS profile/ })
        .click();
      const profileDialog = page.getByRole('dialog', { name: /TDS profile of/ });
      await profileDialog.getByLabel('Section', { exact: true }).selectOption('194C');
      if (i === 0) {
        expect(await axeFindings(page)).toEqual([]);
        await screenshot(page, 'gst-06-vendor-tds');
      }
      await profileDialog.getByRole('button', { name: 'Save' }).click();
      await profileDialog.waitFor({ state: 'hidden' });
    }
    await expectText(
      page.getByTestId('tds-section').first(),
      /194C on ₹[\d,.]+ at 2% = ₹[\d,.]+ — (this bill is above ₹30,000|payments this year passed ₹1,00,000)/,
    );
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-07-tds');
    await page.setViewportSize(PHONE);
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-08-tds-phone');
  });
});
