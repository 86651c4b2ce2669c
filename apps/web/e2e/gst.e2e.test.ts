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

// GST & TDS: two invoices of the synthetic p2p set are read by a flow; they are billed to two GSTINs,
// which the test makes the organisation's. It then writes a small GSTR-2B JSON for each GSTIN from what
// Bahi read (one document as filed; one with ₹500 more taxable value and one the books do not have),
// uploads them on the GST page, widens and restores the tolerance, opens the mismatch beside its invoice,
// accepts it with a reason, exports the IMS list, uploads another business's 2B (said plainly), and
// sees an invoice's TDS with its reason. Every screen passes axe-core with no serious or critical finding.

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
  buyerGstin?: string | null;
  documentNumber: string;
  documentDate: string;
  taxableValue: number;
  igst?: number | null;
  cgst?: number | null;
  sgst?: number | null;
}

/** `2025-08-14` → `14-08-2025`, as the portal writes dates. */
const portalDate = (iso: string) => iso.split('-').reverse().join('-');

/** A GSTIN that is not the organisation's (made up; the 2B of another business). */
const OTHER_GSTIN = '07AAFCZ1122D1ZX';

/**
 * A GSTR-2B JSON (made up here) of one buyer GSTIN for a return period: the given invoices as filed by
 * their suppliers (`extra` rupees added to the taxable value), and with `foreign` one document the books
 * do not have.
 */
function make2b(
  buyer: string,
  period: string,
  docs: Array<{ f: Fields; extra?: number }>,
  foreign: boolean,
): string {
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
  const b2b = docs.map(({ f, extra }, i) => ({
    ctin: f.vendorGstin,
    trdnm: `Supplier ${i + 1}`,
    inv: [inv(f, extra)],
  }));
  if (foreign)
    b2b.push({
      ctin: '19AAKCP8642M1ZQ',
      trdnm: 'Padma Logistics',
      inv: [
        {
          inum: 'PL-0077',
          dt: `01-${period.slice(0, 2)}-${period.slice(2)}`,
          val: 1180,
          txval: 1000,
          igst: 180,
          cgst: 0,
          sgst: 0,
          cess: 0,
          itcavl: 'Y',
        },
      ],
    });
  return JSON.stringify({ data: { gstin: buyer, rtnprd: period, docdata: { b2b } } });
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
    // A 2B belongs to one buyer GSTIN. The two invoices are billed to two GSTINs of the organisation, each
    // with its own 2B: the first as its supplier filed it; the second ₹500 dearer, with one more document.
    const [gstinA, gstinB] = [first!.buyerGstin!, second!.buyerGstin!];
    expect(gstinA).not.toBe(gstinB);
    const profile = await getApiJson<Record<string, unknown>>(page, '/api/organization');
    const { legalName, phone, orgType, address } = profile.body;
    const saved = await page.context().request.put('/api/organization', {
      data: { legalName, phone, orgType, address, gstins: [{ gstin: gstinA }, { gstin: gstinB }] },
      headers: { origin: app.url },
    });
    expect(saved.status()).toBe(200);
    const period = `${first!.documentDate.slice(5, 7)}${first!.documentDate.slice(0, 4)}`;
    const fileA = make2b(gstinA, period, [{ f: first! }], false);
    const json = make2b(gstinB, period, [{ f: second!, extra: 500 }], true);

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
    // The first GSTIN's 2B: its one invoice matches; the screen names the GSTIN it shows.
    await input.setInputFiles({
      name: `GSTR2B_${period}_A.json`,
      mimeType: 'application/json',
      buffer: Buffer.from(fileA),
    });
    await expect.poll(() => page.getByTestId('gstin-select').inputValue(), { timeout: 15_000 }).toBe(gstinA);
    await expectText(page.getByTestId('tab-matched'), /Matched \(1\)/);
    await expectText(page.getByTestId('tab-mismatch'), /Mismatch \(0\)/);
    // The second GSTIN's 2B is matched only with the invoice billed to it.
    await input.setInputFiles({
      name: `GSTR2B_${period}.json`,
      mimeType: 'application/json',
      buffer: Buffer.from(json),
    });
    await expect.poll(() => page.getByTestId('gstin-select').inputValue(), { timeout: 15_000 }).toBe(gstinB);
    await expectText(page.getByTestId('tab-mismatch'), /Mismatch \(1\)/);
    await expectText(page.getByTestId('tab-matched'), /Matched \(0\)/);
    await expectText(page.getByTestId('tab-missing_in_books'), /Missing in books \(1\)[\s\S]*ITC ₹180\.00/);
    await expectText(page.getByTestId('tab-missing_in_2b'), /Missing in 2B \(0\)/);
    await expectCount(page.getByTestId('gstin-not-ours'), 0);
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

    // The tolerance: a permitted role widens it past the ₹500 difference, and the match follows at once.
    await expectText(page.getByTestId('gst-tolerance'), /Amounts within ₹1\.00 count as equal/);
    await page.getByTestId('gst-tolerance').getByRole('button', { name: 'Change' }).click();
    const tolerance = page.getByRole('dialog', { name: 'GSTR-2B tolerance' });
    await tolerance.getByLabel('Amount (₹)').fill('-5');
    await tolerance.getByRole('button', { name: 'Save' }).click();
    await expectText(tolerance.getByRole('alert'), 'Cannot be negative');
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-02a-tolerance');
    await tolerance.getByLabel('Amount (₹)').fill('600');
    await tolerance.getByRole('button', { name: 'Save' }).click();
    await tolerance.waitFor({ state: 'hidden' });
    await expectText(page.getByTestId('tab-mismatch'), /Mismatch \(0\)/);
    await expectText(page.getByTestId('tab-within_tolerance'), /Within tolerance \(1\)/);
    await expectText(page.getByTestId('gst-tolerance'), /Amounts within ₹600\.00 count as equal/);
    // Back to the portal's ₹1: the difference is a mismatch again.
    await page.getByTestId('gst-tolerance').getByRole('button', { name: 'Change' }).click();
    await tolerance.getByLabel('Amount (₹)').fill('1');
    await tolerance.getByRole('button', { name: 'Save' }).click();
    await tolerance.waitFor({ state: 'hidden' });
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
    await expectText(page.getByTestId('tab-matched'), /Matched \(1\)/);
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

    // The IMS list of the GSTIN shown: every document of its 2B with the suggested action.
    const href = (await page.getByTestId('download-ims').getAttribute('href')) ?? '';
    expect(href).toContain(`period=${period}`);
    expect(href).toContain(`gstin=${gstinB}`);
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
    expect(actions.sort()).toEqual(
      [
        [second!.documentNumber, 'Accept'],
        ['PL-0077', 'Pending'],
      ].sort(),
    );
    // The other GSTIN's match is its own.
    await page.getByTestId('gstin-select').selectOption(gstinA);
    await expectText(page.getByTestId('tab-matched'), /Matched \(1\)/);
    await expectText(page.getByTestId('tab-missing_in_books'), /Missing in books \(0\)/);

    // Another business's 2B: uploaded, said plainly, matched with nothing of these books.
    await input.setInputFiles({
      name: 'other.json',
      mimeType: 'application/json',
      buffer: Buffer.from(make2b(OTHER_GSTIN, period, [{ f: first! }, { f: second! }], true)),
    });
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: "not one of your organisation's" }).first(),
      `${OTHER_GSTIN} is not one of your organisation's GSTINs: check you downloaded the right GSTIN's 2B`,
    );
    await expectText(page.getByTestId('gstin-not-ours'), /is not one of your organisation's GSTINs/);
    expect(await page.getByTestId('gstin-select').inputValue()).toBe(OTHER_GSTIN);
    // None of the invoices is billed to it: all three of its documents are missing from the books.
    await expectText(page.getByTestId('tab-missing_in_books'), /Missing in books \(3\)/);
    await expectText(page.getByTestId('tab-matched'), /Matched \(0\)/);
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'gst-04a-other-gstin');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'gst-04b-other-gstin-phone');
    await page.setViewportSize(DESKTOP);
    await page.getByTestId('gstin-select').selectOption(gstinB);
    await expectCount(page.getByTestId('gstin-not-ours'), 0);
    await expectText(page.getByTestId('tab-matched'), /Matched \(1\)/);

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
      // The last save's toast sits over the next row's Edit button at desktop width: let it go first.
      await expectCount(page.locator('[data-sonner-toast]'), 0, 15_000);
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
    // Two 2B files, a tolerance round trip and another GSTIN on top of the month's work: a long walk.
  }, 300_000);
});
