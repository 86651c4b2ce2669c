import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createUploadFlow,
  createUser,
  expectCount,
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
const p2p = (name: string) => join(fixture('p2p'), name);
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical axe findings on what the page shows now (as `a11y.e2e.test.ts` judges). */
async function seriousFindings(page: Page): Promise<string[]> {
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

/** Pictures the page at both widths and checks axe at each: no serious or critical violation. */
async function shootAndAudit(page: Page, name: string, focus?: Locator): Promise<void> {
  // A passing toast is not the screen: wait for it to go (they last four seconds).
  await expectCount(page.locator('[data-sonner-toast]'), 0, 10_000);
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(page, `${name}-desktop`);
  expect(await seriousFindings(page), `${name} at desktop width`).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(page, `${name}-phone`);
  expect(await seriousFindings(page), `${name} at phone width`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A flow of one document type reading `files` (upload name → fixture path), run to the end; its id. */
async function runFlow(
  page: Page,
  name: string,
  type: 'PO' | 'GRN' | 'INVOICE',
  files: Record<string, string>,
): Promise<string> {
  const flowId = await createUploadFlow(page, name, type);
  await uploadAndRun(page, flowId, files);
  return flowId;
}

interface ListedDocument {
  id: string;
  fileName: string;
  status: string;
  extraction: { fields: Record<string, unknown> } | null;
}

/** Waits until the document is approved (approving moves on to the next document that needs a look). */
async function waitApproved(page: Page, id: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await getApiJson<{ approvedAt: string | null }>(page, `/api/documents/${id}/review`)).body
          .approvedAt,
    )
    .not.toBeNull();
}

/** A flow's document by the name it was uploaded under. */
async function findDocument(page: Page, flowId: string, fileName: string): Promise<ListedDocument> {
  const docs = await getApiJson<{ items: ListedDocument[] }>(page, `/api/flows/${flowId}/documents`);
  const doc = docs.body.items.find((d) => d.fileName === fileName);
  if (!doc) throw new Error(`${fileName} is not in flow ${flowId}`);
  // The list leaves the reading out; the document itself carries it.
  return (await getApiJson<ListedDocument>(page, `/api/documents/${doc.id}`)).body;
}

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

    // Home: "Generate Vendor Form" is live and leads to vendor onboarding on Vendor Management.
    await page.getByRole('link', { name: /Generate Vendor Form/ }).waitFor();
    await shootBoth(page, 'month-01-home');
    await page.getByRole('link', { name: /Generate Vendor Form/ }).click();
    await page.waitForURL(/\/vendor-management/);
    // It opens the link dialog itself; behind it, the onboarding section.
    await page.getByRole('dialog', { name: 'Vendor onboarding link' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Vendor onboarding' }).waitFor();
    await page.goto('/');

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
    // Approving it is the person's decision (no input tax credit on it), and teaches the vendor master its
    // vendor: only verified documents do.
    await page.getByTestId('approve').click();
    await waitApproved(page, invoice.id);

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

  it('one duplicate decision, verified money apart, invoices without a PO, vendors from approved documents', async () => {
    const page = await app.newPage({ viewport: { width: 1280, height: 900 } });
    await createUser(page, { emailPrefix: 'first-month-money' });
    await runFlow(page, 'Purchase orders', 'PO', {
      'po-a.pdf': p2p('po-009.pdf'),
      'po-b.pdf': p2p('po-008.pdf'),
    });
    await runFlow(page, 'Goods receipts', 'GRN', {
      'grn-a.pdf': p2p('grn-011.pdf'),
      'grn-b.pdf': p2p('grn-012.pdf'),
    });
    const bills = await runFlow(page, 'Purchase bills', 'INVOICE', {
      'bill-a.pdf': p2p('invoice-005.pdf'),
      'bill-b.pdf': p2p('invoice-010.pdf'),
    });
    // The branch sends the same bill again: Review flags the copy, never the original.
    const branch = await runFlow(page, 'Branch bills', 'INVOICE', {
      'bill-b-again.pdf': p2p('invoice-010.pdf'),
    });
    // A travel bill has no purchase order, and its vendor's name was read with low confidence.
    const travel = await runFlow(page, 'Travel', 'INVOICE', { 'taxi.pdf': fixture('invoice-002.pdf') });
    const original = await findDocument(page, bills, 'bill-b.pdf');
    const copy = await findDocument(page, branch, 'bill-b-again.pdf');
    const taxi = await findDocument(page, travel, 'taxi.pdf');
    expect([original.status, copy.status, taxi.status]).toEqual(['done', 'needs_review', 'needs_review']);

    // Reconcile holds the copy, pays the original, and counts the copy in no total.
    await page.goto('/reconcile');
    const row = (id: string) => page.locator(`[data-testid="invoice-match"][data-invoice-id="${id}"]`);
    await expectText(row(copy.id).getByTestId('payable'), 'Do not pay');
    expect(await row(copy.id).getAttribute('data-held')).toBe('true');
    await expectText(row(original.id).getByTestId('payable'), 'Pay');
    expect(await row(original.id).getAttribute('data-status')).toBe('matched');
    const money = page.getByTestId('reconcile-money');
    await expectText(
      money,
      /verified \(2 invoices\) · ₹[\d,.]+ awaiting review \(1\) · 1 possible duplicate held out of both/,
    );
    const toggle = row(copy.id).getByRole('button').first();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expectText(row(copy.id).getByTestId('held-copy'), /Held as a possible copy of .*Decide in Review/);
    await shootAndAudit(page, 'month-07-reconcile-copy-held', row(copy.id));

    // Vendors: only those of verified documents; money awaiting review shown apart.
    const vendors = await getApiJson<{ items: Array<{ gstin: string }> }>(page, '/api/vendors');
    const gstins = vendors.body.items.map((v) => v.gstin);
    expect(gstins).toContain(original.extraction!.fields.vendorGstin);
    expect(gstins).not.toContain(taxi.extraction!.fields.vendorGstin);

    // Review: the one place the decision is made.
    await page.goto(`/flows/${branch}/documents/${copy.id}`);
    const notice = page.getByTestId('duplicate-notice');
    await expectText(notice, /Reconcile will not pay it \(the original is paid\)/);
    await shootAndAudit(page, 'month-08-review-duplicate', notice);
    await notice.getByRole('button', { name: 'Not a duplicate — approve' }).click();
    await waitApproved(page, copy.id);

    // "Not a duplicate" changes what Reconcile does: both bills are real, so the goods are billed twice.
    await page.goto('/reconcile');
    await expect.poll(() => row(copy.id).getAttribute('data-held')).toBeNull();
    await expectText(money, /verified \(3 invoices\) · ₹[\d,.]+ awaiting review \(1\)$/);
    const statuses = [
      await row(copy.id).getAttribute('data-status'),
      await row(original.id).getAttribute('data-status'),
    ];
    expect(statuses).toContain('exception');

    // No PO needed for travel: "No PO — needs approval", not "Do not pay".
    await expectText(row(taxi.id).getByTestId('payable'), 'Do not pay');
    const noPo = page.getByTestId('no-po-flows');
    await noPo.locator('summary').click();
    // Saved, then shown as the server has it.
    await noPo.getByLabel('Travel').click();
    await expect.poll(() => noPo.getByLabel('Travel').isChecked()).toBe(true);
    await expectText(row(taxi.id).getByTestId('payable'), 'Approve to pay');
    expect(await row(taxi.id).getAttribute('data-status')).toBe('no_po_needs_approval');
    await expectText(row(taxi.id), /No PO — needs approval/);
    await shootAndAudit(page, 'month-09-reconcile-no-po', row(taxi.id));

    // Approved in Review (a look at a value read with low confidence needs no note): payable.
    await page.goto(`/flows/${travel}/documents/${taxi.id}`);
    await page.getByTestId('approve').click();
    await waitApproved(page, taxi.id);
    await page.goto('/reconcile');
    await expectText(row(taxi.id).getByTestId('payable'), 'Pay');
    expect(await row(taxi.id).getAttribute('data-status')).toBe('no_po_approved');
    // The approved document taught the vendor master its vendor.
    const after = await getApiJson<{ items: Array<{ gstin: string }> }>(page, '/api/vendors');
    expect(after.body.items.map((v) => v.gstin)).toContain(taxi.extraction!.fields.vendorGstin);

    // Reconcile to work through: a status tab, a vendor, a search — answered by the server.
    await page.getByRole('tab', { name: /^Exceptions/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('exception');
    await expect
      .poll(async () => [
        ...new Set(
          await page
            .getByTestId('invoice-match')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))),
        ),
      ])
      .toEqual(['exception']);
    await page.getByRole('tab', { name: /^All/ }).click();
    await page.getByLabel(/^Search by invoice/).fill('taxi');
    await expectCount(page.getByTestId('invoice-match'), 1);
    await shootAndAudit(page, 'month-10-reconcile-filters', page.getByTestId('invoice-match'));
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page
      .getByLabel('Vendor', { exact: true })
      .selectOption(String(original.extraction!.fields.vendorGstin));
    await expect
      .poll(async () =>
        page
          .getByTestId('invoice-match')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-invoice-id'))),
      )
      .toEqual(expect.arrayContaining([original.id, copy.id]));
    await expectCount(page.getByTestId('invoice-match'), 2);

    // The vendors page and Home say what they count.
    await page.goto('/vendor-management');
    await page.getByRole('heading', { name: 'Vendors from your documents' }).waitFor();
    await expectText(page.getByText(/^Suppliers learned from verified documents/), /approved by a person/);
    await shootAndAudit(page, 'month-11-vendors', page.getByTestId('vendor-row').first());
    await page.goto('/');
    await page.getByText('Suppliers learned from verified documents (checks passed or approved)').waitFor();
    await expectText(
      page.getByText(/verified · \d+ awaiting review/).first(),
      /^\d+ verified · \d+ awaiting review/,
    );
    await shootAndAudit(page, 'month-12-home');
  });

  it('a review a checker can move through: key fields first, lines fixed, a note over a failed check', async () => {
    const page = await app.newPage({ viewport: { width: 1280, height: 900 } });
    await createUser(page, { emailPrefix: 'first-month-review' });
    const flowId = await runFlow(page, 'Freight', 'INVOICE', { 'freight.pdf': fixture('invoice-004.pdf') });
    const doc = await findDocument(page, flowId, 'freight.pdf');
    await page.goto(`/flows/${flowId}/documents/${doc.id}`);

    // Key fields first, in the order a checker reads a bill; the rest folded.
    await page.getByRole('heading', { name: 'Key fields' }).waitFor();
    const labels = await page
      .locator('section', { has: page.getByRole('heading', { name: 'Key fields' }) })
      .locator('label')
      .allInnerTexts();
    expect(labels.map((l) => l.trim().split('\n')[0])).toEqual(
      expect.arrayContaining(['Document No.', 'Total']),
    );
    expect(labels[0]).toMatch(/^Document No/);
    const more = page.getByRole('button', { name: /^More fields \(\d+\)/ });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await shootAndAudit(page, 'month-13-review-key-fields');

    // Lines: add an empty row, then delete it again.
    const rows = page.locator('table tbody tr');
    const before = await rows.count();
    await page.getByRole('button', { name: 'Add a line' }).click();
    await expectCount(rows, before + 1);
    await page.getByRole('button', { name: `Delete line ${before + 1}` }).click();
    await expectCount(rows, before);
    await expectText(page.getByTestId('review-trail'), /deleted line \d+[\s\S]*added line \d+/);

    // A total that no longer adds up fails a check: approving asks why, and keeps the note.
    await page.getByLabel('Total', { exact: true }).fill('1');
    await page.getByLabel('Total', { exact: true }).press('Enter');
    await page.getByText("doesn't equal the total", { exact: false }).first().waitFor();
    await page.getByTestId('approve').click();
    const note = page.getByTestId('approval-note');
    await note.getByRole('button', { name: 'Approve with this note' }).click();
    await expectText(note, /at least 10 characters/);
    await note
      .getByLabel(/Why do you approve it anyway/)
      .fill('Total confirmed with the transporter by phone');
    await shootAndAudit(page, 'month-14-review-note', note);
    await note.getByRole('button', { name: 'Approve with this note' }).click();
    await page.getByText('Approved by Asha Verma').waitFor();
    await expectText(
      page.getByTestId('review-trail'),
      /approved the document: “Total confirmed with the transporter by phone”/,
    );
  });
});
