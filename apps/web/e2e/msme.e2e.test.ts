import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { auditAccessibility } from './support/axe.ts';
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

// MSME: purchase orders, goods receipts and invoices of the synthetic p2p set are read; on the MSME page a
// person sets the vendors' categories for the invoices' year (one micro, one medium), sees the micro
// supplier's invoices accepted on their goods receipts' dates and overdue, sets the bank rate for the
// interest estimate, records a payment, has a bad bank statement row refused in words, and downloads
// Form-1. At phone width the page still reads, and axe-core finds nothing serious.

const p2p = fileURLToPath(new URL('./fixtures/p2p/', import.meta.url));

async function runFlow(page: Page, name: string, type: 'PO' | 'GRN' | 'INVOICE', files: string[]) {
  const flowId = await createUploadFlow(page, name, type);
  await uploadAndRun(page, flowId, Object.fromEntries(files.map((f) => [f, join(p2p, f)])));
}

/** Sets a vendor's category for the 2025-26 financial year from its row on the MSME page. */
async function setCategory(page: Page, index: number, category: 'micro' | 'medium') {
  const row = page.getByTestId('msme-vendor').nth(index);
  await row.getByLabel(/^Year/).selectOption('2025');
  await row.getByLabel(/^Category/).selectOption(category);
  await row.getByRole('button', { name: /Set category|Save/ }).click();
  await expectText(page.locator('[data-sonner-toast]').filter({ hasText: '2025-26 saved' }).first(), /saved/);
}

describe('MSME', () => {
  const app = setupApp();

  it('tracks micro suppliers against their due dates, records payments, refuses bad statement rows, exports Form-1', async () => {
    const page = await app.newPage({ viewport: { width: 1280, height: 900 } });
    await createUser(page, { emailPrefix: 'msme' });
    await runFlow(page, 'Purchase orders', 'PO', ['po-009.pdf', 'po-008.pdf']);
    await runFlow(page, 'Goods receipts', 'GRN', ['grn-011.pdf', 'grn-012.pdf']);
    await runFlow(page, 'Purchase bills', 'INVOICE', ['invoice-005.pdf', 'invoice-010.pdf']);

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MSME' }).click();
    await page.getByRole('heading', { name: 'MSME', level: 1 }).waitFor();
    await page.getByText('No MSME invoices yet').waitFor();
    await expectCount(page.getByTestId('msme-vendor'), 2);

    await setCategory(page, 0, 'micro');
    await setCategory(page, 1, 'medium');
    const invoices = page.getByTestId('msme-invoice');
    await expectCount(invoices, 2);
    // The micro supplier's invoice: accepted when its goods were received, long past 15 days today.
    const covered = invoices.filter({ has: page.getByTestId('overdue') });
    await expectCount(covered, 1);
    await expectText(covered, /goods received[\s\S]*\(15 days\)/);
    await expectText(invoices.filter({ hasText: 'Not covered' }), /Medium enterprise/);
    await expectText(page.getByTestId('total-Interest estimate (s.16)'), /Set the bank rate/);

    await page.getByTestId('bank-rate').fill('abc');
    await page.getByRole('button', { name: 'Add rate' }).click();
    await expectText(
      page.getByRole('form', { name: 'Add a bank rate' }).getByRole('alert'),
      /bank rate in percent/,
    );
    // A rate from today only: the overdue invoice was due before it, so it gets no figure, said in words.
    await page.getByTestId('bank-rate').fill('6.5');
    await page.getByRole('button', { name: 'Add rate' }).click();
    await expectText(covered, /no bank rate recorded for \d{2}\/\d{2}\/\d{4}: add the rate then in force/);
    await expectText(page.getByTestId('total-Interest estimate (s.16)'), /Without 1 late invoice/);
    // The rate in force earlier, from its own day: the invoice is priced at it (three times 6 %).
    await page.getByTestId('bank-rate').fill('6');
    await page.getByTestId('bank-rate-from').fill('2015-04-01');
    await page.getByRole('button', { name: 'Add rate' }).click();
    await expectCount(page.getByTestId('bank-rate-row'), 2);
    await expectText(page.getByTestId('total-Interest estimate (s.16)'), /₹[1-9]/);
    await expectText(covered, /interest ₹[\d,.]+ \(3 × 6 % bank rate on the due date\)/);
    await screenshot(page, 'msme-01-overdue');

    // A payment against the overdue invoice, with a reference.
    await covered.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record a payment' });
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectText(dialog, /Enter the bank reference/);
    await dialog.getByLabel('Amount (₹)').fill('1000');
    await dialog.getByLabel('Bank reference (UTR or cheque no.)').fill('UTR-TEST-0001');
    await dialog.getByLabel('Reason for delay (for Form-1)').fill('Quality certificate awaited');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectCount(page.getByTestId('msme-payment'), 1);
    await expectText(covered, /paid late ₹1,000/);

    // A bank statement with a bad row: named, nothing imported.
    await page.getByTestId('import-csv').setInputFiles({
      name: 'statement.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Date,Amount,Reference,GSTIN\n31/02/2026,500,UTR-X,27AAAAA0000A1Z5\n'),
    });
    await expectText(
      page.getByTestId('import-errors'),
      /Nothing was imported[\s\S]*Row 2: the date "31\/02\/2026" is not a date/,
    );
    await expectCount(page.getByTestId('msme-payment'), 1);
    expect((await auditAccessibility(page, 'msme-desktop')).map((f) => f.rule)).toEqual([]);

    // Form-1 of the half-year holding the invoices: one line for the micro supplier.
    const href = (await page.getByTestId('download-form1').getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/api\/msme\/form1\.xlsx\?financialYear=\d{4}&half=H[12]$/);
    for (const half of ['H1', 'H2']) {
      const answer = await page.context().request.get(`/api/msme/form1.xlsx?financialYear=2025&half=${half}`);
      expect(answer.status()).toBe(200);
      const body = await answer.body();
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(
        body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
      );
      const sheet = book.worksheets[0]!;
      expect(sheet.getRow(1).getCell(2).value).toBe('PAN of the Supplier');
      expect(sheet.rowCount).toBeLessThanOrEqual(2);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Invoices' }).scrollIntoViewIfNeeded();
    expect((await auditAccessibility(page, 'msme-phone')).map((f) => f.rule)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'msme-02-phone');
    // Three flows are read first: on a busy machine that alone can take a minute or two.
  }, 360_000);
});
