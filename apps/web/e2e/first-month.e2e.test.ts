import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createUploadFlow,
  createUser,
  expectText,
  getApiJson,
  type Locator,
  type Page,
  screenshot,
  setupApp,
  uploadAndRun,
} from './support/harness.ts';

// Numbers and words a finance team can trust in its first month (#26): an invoice billed to another
// company asks for a look, a run with files to fix says so, and no screen promises what is not there.

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/**
 * Pictures the page at desktop width and at phone width (390), with `focus` scrolled into view at each,
 * then goes back to desktop.
 */
async function shootBoth(page: Page, name: string, focus?: Locator): Promise<void> {
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize({ width: 390, height: 844 });
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('the first month', () => {
  const app = setupApp();

  it('words that are true: billed to us, a run that needs attention, what is not built yet', async () => {
    const page = await app.newPage({ viewport: { width: 1280, height: 900 } });
    await createUser(page, { emailPrefix: 'first-month' });

    // Home: the vendor form is not built, and says so plainly instead of linking elsewhere.
    const vendorForm = page.getByTestId('quick-action-unavailable');
    await expectText(vendorForm, /^Generate Vendor Form\s+Not available yet/);
    await shootBoth(page, 'month-01-home', vendorForm);

    // The organisation's own GSTIN (Maharashtra): invoice-003 is billed to Banerjee Paper Mills instead.
    const saved = await page.evaluate(async () => {
      const res = await fetch('/api/organization', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          legalName: 'Acme Traders Private Limited',
          phone: '+91 98450 12345',
          orgType: 'pvt_ltd',
          address: '12 MG Road, Bengaluru, Karnataka 560001',
          gstins: [{ gstin: '27AAPFU0939F1ZV', label: 'Mumbai' }],
        }),
      });
      return res.status;
    });
    expect(saved).toBe(200);

    // Parse: "Create New Flow" is in the header even before the first flow.
    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create New Flow' }).waitFor();
    const flowId = await createUploadFlow(page, 'Purchase bills');
    await uploadAndRun(page, flowId, {
      'banerjee.pdf': fixture('invoice-003.pdf'),
      'scan.pdf': fixture('corrupt-invoice.pdf'),
    });
    await page.goto('/parse');
    const card = page.getByTestId('flow-card');
    // One needs review (billed to another company), one failed (a damaged file): not a green "Success".
    await expectText(card.getByTestId('flow-status'), 'Finished — 2 of 2 need attention');
    await page.getByRole('button', { name: 'Create New Flow' }).waitFor();
    await card.getByRole('button', { name: 'Run history' }).click();
    await expectText(
      card.getByRole('table', { name: 'Run history' }).locator('tbody tr').first().locator('td').nth(2),
      'Finished — 2 of 2 need attention',
    );
    await shootBoth(page, 'month-02-parse');

    // Review: the reason in words, naming the company it is billed to.
    const docs = await getApiJson<{ items: Array<{ id: string; fileName: string }> }>(
      page,
      `/api/flows/${flowId}/documents`,
    );
    const invoice = docs.body.items.find((d) => d.fileName === 'banerjee.pdf')!;
    await page.goto(`/flows/${flowId}/documents/${invoice.id}`);
    const reason = page.getByText(
      "Billed to Banerjee Paper Mills Pvt. Ltd. (GSTIN 21BLHCB1957H1Z8), which is not one of your organisation's GSTINs",
      { exact: false },
    );
    await reason.waitFor();
    await shootBoth(page, 'month-03-review', reason);

    // Vendor Management: the vendor list works, so no "Coming Soon" over it, and no dated promises.
    await page.goto('/vendor-management');
    await page.getByRole('heading', { name: 'Vendors from your documents' }).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/Coming Soon/i);
    expect(text).not.toMatch(/Q[1-4] 20\d\d/);
    await expectText(page.getByTestId('roadmap').locator('li').first(), /Available now/);
    await shootBoth(page, 'month-04-vendors');
    await shootBoth(page, 'month-04-vendors-roadmap', page.getByTestId('roadmap'));

    // Compliance: MSME payment dates work (on Reconcile); the rest is planned, with no date promised.
    await page.goto('/compliance');
    await page.getByText('MSME payment dates available').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/Q[1-4] 20\d\d|Coming Soon/i);
    await shootBoth(page, 'month-06-compliance');
    await page.goto('/vendor-management');

    // The agreed days of an MSME supplier: at most 45, in the law's words under the field.
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await page.getByLabel('Agreed days to pay after acceptance').fill('60');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('the MSMED Act (section 15) allows at most 45 days', { exact: false }).waitFor();
    await shootBoth(page, 'month-05-vendor-days');
  });
});
