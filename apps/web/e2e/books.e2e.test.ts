import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_LEDGERS,
  startTallyStandIn,
  type TallyStandIn,
} from '../../server/src/test/tally-stand-in.ts';
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

// Into the books: two invoices of the synthetic p2p set are read, approved and posted to a loopback Tally
// stand-in. The ledgers are mapped on the Integrations page (supplier ledgers suggested by GSTIN), the review
// queue's "Post to Tally" shows "Posted", and a corrected, re-approved invoice posts again as "Altered" —
// the same voucher, never a second one.

const p2p = fileURLToPath(new URL('./fixtures/p2p/', import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Every usual GST rate's purchase and input-tax ledgers, besides the stand-in's defaults. */
function taxLedgers() {
  const out = [...DEFAULT_LEDGERS];
  for (const r of [0, 3, 5, 12, 18, 28, 40]) {
    const half = String(r / 2);
    out.push(
      { name: `Purchase @${r}%`, parent: 'Purchase Accounts' },
      { name: `Input IGST @${r}%`, parent: 'Duties & Taxes' },
      { name: `Input CGST @${half}%`, parent: 'Duties & Taxes' },
      { name: `Input SGST @${half}%`, parent: 'Duties & Taxes' },
    );
  }
  return out.filter((l, i) => out.findIndex((x) => x.name === l.name) === i);
}

interface Read {
  id: string;
  fields: { vendorGstin: string; vendorName: string; documentDate: string; documentNumber: string };
}

async function send(page: Page, method: string, path: string, body: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) =>
      (
        await fetch(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status,
    { method, path, body },
  );
}

let stand: TallyStandIn | undefined;
afterAll(() => stand?.close());

describe('Tally', () => {
  const app = setupApp();

  it('maps ledgers, posts two approved invoices ("Posted"), and alters a corrected one ("Altered")', async () => {
    const page = await app.newPage({ viewport: DESKTOP });
    await createUser(page, { emailPrefix: 'books' });
    const flowId = await createUploadFlow(page, 'Purchase bills', 'INVOICE');
    await uploadAndRun(page, flowId, {
      'invoice-005.pdf': join(p2p, 'invoice-005.pdf'),
      'invoice-010.pdf': join(p2p, 'invoice-010.pdf'),
    });
    const list = await getApiJson<{ items: Array<{ id: string }> }>(page, `/api/flows/${flowId}/documents`);
    const docs: Read[] = [];
    for (const d of list.body.items) {
      const doc = await getApiJson<{ extraction: { fields: Read['fields'] } }>(
        page,
        `/api/documents/${d.id}`,
      );
      docs.push({ id: d.id, fields: doc.body.extraction.fields });
    }
    expect(docs).toHaveLength(2);
    // Tally already has the two suppliers, under other names than the invoices print.
    stand = await startTallyStandIn({ company: 'Demo Traders Pvt Ltd', ledgers: taxLedgers() });
    for (const [i, d] of docs.entries())
      stand.ledgers.set(`Supplier ${i + 1} (Creditors)`, {
        name: `Supplier ${i + 1} (Creditors)`,
        parent: 'Sundry Creditors',
        gstin: d.fields.vendorGstin,
      });
    for (const d of docs)
      expect(
        await send(page, 'POST', `/api/documents/${d.id}/approve`, { note: 'Checked against the order' }),
      ).toBe(200);

    // Connect Tally and map the ledgers.
    await page.goto('/integrations');
    const card = page.getByTestId('tally-card');
    await card.getByLabel('Computer running Tally').fill('127.0.0.1');
    await card.getByLabel('Port').fill(String(stand.port));
    await card.getByLabel(/^Company/).fill('Demo Traders Pvt Ltd');
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expectText(card.getByTestId('tally-badge'), /Connected/);
    const mapping = card.getByTestId('tally-mapping');
    // The box offers Tally's ledgers as a list (<input list>), so its role is combobox, not textbox.
    for (const [i, d] of docs.entries())
      await expect
        .poll(() =>
          mapping.getByRole('combobox', { name: `Tally ledger for ${d.fields.vendorName}` }).inputValue(),
        )
        .toBe(`Supplier ${i + 1} (Creditors)`);
    await expectText(mapping, /suggested by GSTIN/);
    await mapping.scrollIntoViewIfNeeded();
    await screenshot(page, 'books-01-integrations');
    await mapping.getByRole('button', { name: 'Save mapping' }).click();
    await expectText(page.locator('[data-sonner-toast]').first(), /Ledger mapping saved/);

    // Post both from the review queue.
    await page.goto('/review?view=approved');
    await page.getByRole('button', { name: 'Post to Tally (2)' }).click();
    await expectCount(page.getByTestId('tally-status').filter({ hasText: /^Posted$/ }), 2, 30_000);
    await screenshot(page, 'books-02-posted');
    expect(stand.vouchers.size).toBe(2);

    // Correct one, approve it again and post again: the same voucher is altered.
    const [first] = docs;
    const date = first!.fields.documentDate;
    const day = Number(date.slice(8, 10));
    const next = `${date.slice(0, 8)}${String(day < 28 ? day + 1 : day - 1).padStart(2, '0')}`;
    expect(
      await send(page, 'PATCH', `/api/documents/${first!.id}`, { fields: { documentDate: next }, lines: [] }),
    ).toBe(200);
    expect(
      await send(page, 'POST', `/api/documents/${first!.id}/approve`, {
        note: 'Date corrected from the paper',
      }),
    ).toBe(200);
    await page.goto(`/flows/${flowId}/documents/${first!.id}`);
    const panel = page.getByTestId('document-tally');
    await expectText(panel, /Posted/);
    await panel.getByRole('button', { name: 'Post again' }).click();
    await expectText(panel.getByTestId('tally-status'), /^Altered$/, 30_000);
    await page.goto('/review?view=approved');
    await expectCount(page.getByTestId('tally-status').filter({ hasText: /^Altered$/ }), 1, 30_000);
    await expectCount(page.getByTestId('tally-status').filter({ hasText: /^Posted$/ }), 1);
    expect(stand.vouchers.size).toBe(2);
    expect([...stand.vouchers.values()].map((v) => v.created)).toEqual([1, 1]);
    expect(
      [...stand.vouchers.values()].some((v) => v.altered === 1 && v.date === next.replace(/-/g, '')),
    ).toBe(true);

    await page.setViewportSize(PHONE);
    await page.goto('/integrations');
    await page.getByTestId('tally-card').waitFor();
    await screenshot(page, 'books-03-integrations-phone');
    // The suppliers' rows, the top of the mapping, in view.
    const phoneSupplier = page
      .getByTestId('tally-mapping')
      .getByRole('combobox', { name: `Tally ledger for ${first!.fields.vendorName}` });
    await phoneSupplier.waitFor();
    await phoneSupplier.scrollIntoViewIfNeeded();
    await screenshot(page, 'books-03b-mapping-phone');
    await page.goto('/review?view=approved');
    await expectCount(page.getByTestId('tally-status'), 2);
    await screenshot(page, 'books-04-review-phone');
  }, 400_000);
});
