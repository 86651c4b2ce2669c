import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startZohoStandIn, type ZohoStandIn } from '../../server/src/test/zoho-books-stand-in.ts';
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

// Into Zoho Books: two invoices of the synthetic p2p set are read and approved; Zoho Books is connected on
// the Integrations page (organisation, data centre, OAuth client) against a loopback stand-in, whose
// accounts and taxes suggest the mapping; the review queue's "Post to Zoho Books" shows "Posted", each bill
// made once with its PDF attached.

const p2p = fileURLToPath(new URL('./fixtures/p2p/', import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function approve(page: Page, id: string): Promise<number> {
  return page.evaluate(
    async (id) =>
      (
        await fetch(`/api/documents/${id}/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ note: 'Checked against the order' }),
        })
      ).status,
    id,
  );
}

let stand: ZohoStandIn | undefined;
afterAll(() => stand?.close());

describe('Zoho Books', () => {
  const app = setupApp(async () => {
    stand = await startZohoStandIn();
    return { env: { ZOHO_API_BASE_URL: stand.urls.api, ZOHO_ACCOUNTS_URL: stand.urls.accounts } };
  });

  it('connects, maps accounts and taxes from Zoho, and posts two approved invoices as bills ("Posted")', async () => {
    const zoho = stand!;
    const page = await app.newPage({ viewport: DESKTOP });
    await createUser(page, { emailPrefix: 'zoho' });
    const flowId = await createUploadFlow(page, 'Purchase bills', 'INVOICE');
    await uploadAndRun(page, flowId, {
      'invoice-005.pdf': join(p2p, 'invoice-005.pdf'),
      'invoice-010.pdf': join(p2p, 'invoice-010.pdf'),
    });
    const list = await getApiJson<{ items: Array<{ id: string }> }>(page, `/api/flows/${flowId}/documents`);
    expect(list.body.items).toHaveLength(2);
    for (const [i, d] of list.body.items.entries()) {
      const doc = await getApiJson<{ extraction: { fields: { vendorGstin: string } } }>(
        page,
        `/api/documents/${d.id}`,
      );
      // Zoho already has both suppliers as vendors, under its own names, with their GSTINs.
      zoho.contacts.push({
        contact_id: `c-${i}`,
        contact_name: `Vendor ${i + 1}`,
        gst_no: doc.body.extraction.fields.vendorGstin,
      });
      expect(await approve(page, d.id)).toBe(200);
    }

    await page.goto('/integrations');
    const card = page.getByTestId('zoho-card');
    await card.getByLabel('Organisation ID').fill(zoho.organizationId);
    await card.getByLabel('Client ID').fill(zoho.client.id);
    await card.getByLabel('Client secret').fill(zoho.client.secret);
    await card.getByLabel('Refresh token').fill(zoho.client.refreshToken);
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expectText(card.getByTestId('zoho-badge'), /Connected/);
    await expectText(card.getByTestId('zoho-state'), /accounts, \d+ taxes and 2 vendors read/);
    // The secret fields are write-only: emptied after saving, saying a value is stored.
    await expect
      .poll(() => card.getByLabel('Client secret').getAttribute('placeholder'), { timeout: 15_000 })
      .toMatch(/Stored/);
    const mapping = card.getByTestId('zoho-mapping');
    const purchase18 = mapping.getByRole('combobox', { name: 'Purchase account for 18%' });
    // The suggestions come with the mapping read again once the test has stored Zoho's lists: a moment
    // after the state line, longer on a busy machine (one CI run under load waited past 15 s).
    await expect.poll(() => purchase18.inputValue(), { timeout: 30_000 }).toBe('acc-purchases');
    await expect
      .poll(() => mapping.getByRole('combobox', { name: /within the state .* for 18%/ }).inputValue(), {
        timeout: 30_000,
      })
      .toBe('tax-gst18');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'zoho-01-integrations');
    await mapping.getByRole('button', { name: 'Save mapping' }).click();
    await expectText(page.locator('[data-sonner-toast]').first(), /Zoho Books mapping saved/);

    await page.goto('/review?view=approved');
    await page.getByRole('button', { name: 'Post to Zoho Books (2)' }).click();
    await expectCount(page.getByTestId('zoho-status').filter({ hasText: /^Posted$/ }), 2, 30_000);
    await screenshot(page, 'zoho-02-posted');
    expect(zoho.bills.size).toBe(2);
    for (const bill of zoho.bills.values()) expect(bill.documents).toHaveLength(1);

    // Posting again sends no bill: nothing changed.
    const writes = zoho.billWrites;
    await page.getByRole('button', { name: 'Post to Zoho Books (2)' }).click();
    await expectText(page.locator('[data-sonner-toast]').last(), /on the way to Zoho Books/);
    await expectCount(page.getByTestId('zoho-status').filter({ hasText: /^Posted$/ }), 2, 30_000);
    expect(zoho.billWrites).toBe(writes);

    await page.goto(`/flows/${flowId}/documents/${list.body.items[0]!.id}`);
    await expectText(page.getByTestId('document-zoho'), /Posted/);

    await page.setViewportSize(PHONE);
    await page.goto('/integrations');
    // The form's top (the card is taller than a phone's screen).
    await page.getByTestId('zoho-card').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'zoho-03-integrations-phone');
    await page.getByTestId('zoho-mapping').scrollIntoViewIfNeeded();
    await screenshot(page, 'zoho-03b-mapping-phone');
    await page.goto('/review?view=approved');
    await expectCount(page.getByTestId('zoho-status'), 2);
    await screenshot(page, 'zoho-04-review-phone');
  }, 400_000);
});
