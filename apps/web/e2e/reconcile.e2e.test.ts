import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  createUploadFlow,
  createUser,
  expectCount,
  expectText,
  type Page,
  screenshot,
  setupApp,
  uploadAndRun,
} from './support/harness.ts';

// Three flows (purchase orders, goods receipts, invoices) read two procure-to-pay scenarios of the
// synthetic p2p dev set, copied into fixtures/p2p so the test needs nothing beside the repository: one
// clean, one billed above the PO rate. The Reconcile screen matches them across the flows, and a person
// clears the exception with a written reason.

const p2p = fileURLToPath(new URL('./fixtures/p2p/', import.meta.url));

/** A flow of one document type holding `files` of the p2p set, run to the end. */
async function runFlow(
  page: Page,
  name: string,
  type: 'PO' | 'GRN' | 'INVOICE',
  files: string[],
): Promise<void> {
  const flowId = await createUploadFlow(page, name, type);
  await uploadAndRun(page, flowId, Object.fromEntries(files.map((f) => [f, join(p2p, f)])));
}

describe('reconcile', () => {
  const app = setupApp();

  it('matches POs, GRNs and invoices of three flows and clears an exception with a reason', async () => {
    const page = await app.newPage({ viewport: { width: 1366, height: 900 } });
    await createUser(page, { emailPrefix: 'reconcile' });
    await runFlow(page, 'Purchase orders', 'PO', ['po-009.pdf', 'po-008.pdf']);
    await runFlow(page, 'Goods receipts', 'GRN', ['grn-011.pdf', 'grn-012.pdf']);
    await runFlow(page, 'Purchase bills', 'INVOICE', ['invoice-005.pdf', 'invoice-010.pdf']);

    await page.goto('/reconcile');
    const invoices = page.getByTestId('invoice-match');
    await expectCount(invoices, 2);
    // Purchase orders are folded under their heading until opened.
    await page.getByRole('button', { name: 'Purchase orders (2)' }).click();
    await expectCount(page.getByTestId('po-match'), 2);
    const clean = invoices.filter({ hasText: '1123' });
    const dearer = invoices.filter({ hasText: 'MH/25-26/1028' });
    expect(await clean.getAttribute('data-status')).toBe('matched');
    await expectText(clean.getByTestId('payable'), 'Pay');
    expect(await dearer.getAttribute('data-status')).toBe('exception');
    await expectText(dearer.getByTestId('payable'), 'Hold');
    // The exception opens with its evidence: the reason and the lines side by side.
    const detail = dearer.getByTestId('invoice-detail');
    await expectText(detail, /Rate differs from the purchase order/);
    await expectCount(detail.getByRole('table', { name: 'Evidence by line' }), 1);
    await screenshot(page, 'reconcile-01-exception');

    // A reason is required, in words.
    await detail.getByRole('button', { name: 'Clear exceptions' }).click();
    await expectText(detail, /at least 10 characters/);
    await detail
      .getByLabel(/Clear these exceptions/)
      .fill('Rate revised by the vendor from July; PO amendment to follow');
    await detail.getByRole('button', { name: 'Clear exceptions' }).click();
    await expect.poll(() => dearer.getAttribute('data-status')).toBe('overridden');
    await expectText(dearer.getByTestId('payable'), 'Pay');
    // Still open: who cleared it, when and why.
    await expectText(
      dearer.getByTestId('invoice-detail'),
      /Cleared by Asha Verma .*Rate revised by the vendor/,
    );
    await screenshot(page, 'reconcile-02-cleared');

    // The workbook: one row per invoice line, an empty exception queue now, both POs.
    const download = await page
      .context()
      .request.get((await page.getByTestId('download-reconcile').getAttribute('href')) ?? '');
    expect(download.status()).toBe(200);
    const body = await download.body();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
    );
    expect(book.worksheets.map((w) => [w.name, w.rowCount - 1])).toEqual([
      ['Matches', 4],
      ['Exceptions', 0],
      ['Purchase Orders', 2],
    ]);

    // The vendor master grew from the documents; marking one MSME starts its payment clock.
    await page.goto('/vendor-management');
    const vendors = page.getByTestId('vendor-row');
    await expectCount(vendors, 2);
    await vendors.filter({ hasText: 'Deccan Chem' }).getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Udyam registration (MSME)').fill('UDYAM-123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectText(dialog, /An Udyam number looks like UDYAM-MH-26-0012345/);
    await dialog.getByLabel('Udyam registration (MSME)').fill('udyam-mh-26-0012345');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectText(vendors.filter({ hasText: 'Deccan Chem' }), /MSME/);
    await screenshot(page, 'reconcile-03-vendors');
    await page.goto('/reconcile');
    // Goods accepted in 2025 and nothing agreed: 15 days, long past due today.
    await expectText(page.getByTestId('msme-due'), /MH\/25-26\/1028[\s\S]*past due/);
    // Cleared earlier, it opens on a click.
    await dearer.getByRole('button', { expanded: false }).click();
    await expectText(dearer.getByTestId('msme-clock'), /UDYAM-MH-26-0012345[\s\S]*pay by [\s\S]*\(15 days\)/);
    await screenshot(page, 'reconcile-04-msme-due');

    // A wider rate tolerance for the organisation: the 5 % difference is now within it.
    await page.getByTestId('reconcile-summary').getByRole('button', { name: 'Change' }).click();
    const tolerances = page.getByRole('dialog', { name: 'Match tolerances' });
    await tolerances.getByLabel('Rate (%)').fill('150');
    await tolerances.getByRole('button', { name: 'Save' }).click();
    await expectText(tolerances, /At most 100 %/);
    await tolerances.getByLabel('Rate (%)').fill('6');
    await tolerances.getByRole('button', { name: 'Save' }).click();
    await tolerances.waitFor({ state: 'hidden' });
    await expect.poll(() => dearer.getAttribute('data-status')).toBe('matched_within_tolerance');
    await expectText(page.getByTestId('reconcile-summary'), /rate 6%/);
  });
});
