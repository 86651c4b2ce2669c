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
  waitForPath,
} from './support/harness.ts';

// Reviewing documents as a finance person does: open one from the inbox, see where a value was read,
// correct it, approve, and find the corrected value in the downloaded workbook; then review the next
// document with the keyboard alone.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

interface ReviewBody {
  document: { id: string; status: string; reviewFlag: string | null };
  approvedBy: string | null;
  events: Array<{ kind: string; field: string | null; newValue: unknown }>;
}

/** Uploads fixtures (as `name` → fixture file) to a flow and runs it to the end. */
function uploadFixtures(page: Page, flowId: string, files: Record<string, string>): Promise<void> {
  return uploadAndRun(
    page,
    flowId,
    Object.fromEntries(Object.entries(files).map(([name, fixture]) => [name, join(fixtures, fixture)])),
  );
}

/** An upload flow named "Purchase bills". */
function createFlow(page: Page): Promise<string> {
  return createUploadFlow(page, 'Purchase bills');
}

/** A flow with two different invoices read by a finished run. */
async function createReviewedFlow(page: Page): Promise<string> {
  const flowId = await createFlow(page);
  await uploadFixtures(page, flowId, {
    'invoice-018.pdf': 'invoice-018.pdf',
    'invoice-003.pdf': 'invoice-003.pdf',
  });
  return flowId;
}

/** The downloaded workbook's document rows, by column label. */
async function readWorkbookRows(page: Page, flowId: string): Promise<Array<Record<string, unknown>>> {
  const response = await page.context().request.get(`/api/flows/${flowId}/sheet.xlsx`);
  expect(response.status()).toBe(200);
  const book = new ExcelJS.Workbook();
  const body = await response.body();
  await book.xlsx.load(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const labels: string[] = [];
  sheet.getRow(1).eachCell((cell, column) => {
    labels[column] = String(cell.value);
  });
  const rows: Array<Record<string, unknown>> = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row: Record<string, unknown> = {};
    sheet.getRow(r).eachCell((cell, column) => {
      row[labels[column]!] = cell.value;
    });
    rows.push(row);
  }
  return rows;
}

describe('review and correct', () => {
  const app = setupApp();

  it('opens a document from the inbox, shows its boxes, takes a correction and an approval into the workbook', async () => {
    const page = await app.newPage({ viewport: { width: 1366, height: 900 } });
    await createUser(page, { emailPrefix: 'review' });
    const flowId = await createReviewedFlow(page);

    // From the inbox to the document's own page.
    await page.goto('/parse');
    const card = page.locator(`[data-flow-id="${flowId}"]`);
    await card.getByRole('button', { name: 'Documents' }).click();
    const inbox = page.getByRole('dialog', { name: 'Purchase bills — documents' });
    await inbox.getByRole('link', { name: 'invoice-018.pdf', exact: true }).click();
    await page.waitForURL(new RegExp(`/flows/${flowId}/documents/[0-9a-f-]+$`));
    const documentId = page.url().split('/').at(-1)!;

    // The page is drawn, and looking at a value draws its box where it was read.
    const picture = page.getByRole('img', { name: 'Page 1 of the document' });
    await picture.waitFor();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(600);
    const total = page.getByLabel('Total', { exact: true });
    await total.focus();
    const box = page.getByTestId('field-box');
    await box.waitFor();
    const boxArea = await box.boundingBox();
    const pageArea = await picture.boundingBox();
    // The total sits in the lower right of this invoice, inside the page.
    expect(boxArea!.x).toBeGreaterThan(pageArea!.x + pageArea!.width / 2);
    expect(boxArea!.y).toBeGreaterThan(pageArea!.y + pageArea!.height / 3);
    expect(boxArea!.x + boxArea!.width).toBeLessThanOrEqual(pageArea!.x + pageArea!.width + 1);
    await screenshot(page, 'review-01-document-with-box');

    // A value typed wrong is said so before anything is saved. The due date is under "More fields".
    await page.getByRole('button', { name: /^More fields/ }).click();
    const due = page.getByLabel('Due Date', { exact: true });
    await due.fill('31/02/2024');
    await expectText(page.locator('[data-key="dueDate"]'), /Enter a date like 14\/08\/2025/);
    await due.press('Escape');

    // A wrong total makes the checks fail; putting it right clears them.
    await total.fill('2,48,700');
    await total.press('Enter');
    await expectText(page.getByTestId('review-trail'), /changed Total from 248693 to 248700/);
    await expectText(page.locator('[data-key="total"]'), /doesn't equal the total/);
    await total.fill('2,48,693');
    await total.press('Enter');
    await expectText(page.getByTestId('review-trail'), /changed Total from 248700 to 248693/);
    await expect.poll(() => page.locator('[data-key="total"]').textContent()).not.toMatch(/doesn't equal/);

    // Correct a value that was wrong on the sheet: the due date.
    await due.fill('08/08/2024');
    await due.press('Enter');
    await expectText(page.getByTestId('review-trail'), /changed Due Date from 2024-08-07 to 2024-08-08/);
    await expectText(page.locator('[data-key="dueDate"]'), /Corrected/);
    await screenshot(page, 'review-02-corrected');
    // The correction answered before the sheet was written: the workbook catches up within seconds, and
    // the screen says when it has.
    const dueInWorkbook = async () =>
      String(
        (await readWorkbookRows(page, flowId)).find((r) => r['File Name'] === 'invoice-018.pdf')?.[
          'Due Date'
        ],
      );
    await expect.poll(dueInWorkbook, { timeout: 30_000 }).toMatch(/2024-08-08|Aug 08 2024/);
    await expectText(page.getByRole('status').filter({ hasText: /Sheet/ }), /^Sheet updated \d\d:\d\d$/);

    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect
      .poll(
        async () =>
          (await getApiJson<ReviewBody>(page, `/api/documents/${documentId}/review`)).body.approvedBy,
      )
      .toBe('Asha Verma');
    const first = await getApiJson<ReviewBody>(page, `/api/documents/${documentId}/review`);
    expect(first.body.document).toMatchObject({ status: 'done', reviewFlag: 'approved' });
    expect(first.body.events.map((e) => e.kind)).toEqual(['corrected', 'corrected', 'corrected', 'approved']);

    const rows = await readWorkbookRows(page, flowId);
    const row = rows.find((r) => r['File Name'] === 'invoice-018.pdf');
    expect(row?.Review).toBe('Approved');
    expect(row?.Total).toBe(248693);
    expect(String(row?.['Due Date'])).toMatch(/2024-08-08|Aug 08 2024/);
  });

  it('reviews two documents with the keyboard alone', async () => {
    const page = await app.newPage({ viewport: { width: 1366, height: 900 } });
    await createUser(page, { emailPrefix: 'keys' });
    const flowId = await createFlow(page);
    await uploadFixtures(page, flowId, {
      'invoice-002.pdf': 'invoice-002.pdf',
      'invoice-003.pdf': 'invoice-003.pdf',
    });
    const docs = await getApiJson<{ items: Array<{ id: string; fileName: string; status: string }> }>(
      page,
      `/api/flows/${flowId}/documents`,
    );
    // invoice-003 reads clean; invoice-002 needs a look (its vendor's name was read with low confidence).
    const clean = docs.body.items.find((d) => d.fileName === 'invoice-003.pdf')!;
    const unsure = docs.body.items.find((d) => d.fileName === 'invoice-002.pdf')!;
    expect(clean.status).toBe('done');
    expect(unsure.status).toBe('needs_review');
    const pathOf = (id: string) => `/flows/${flowId}/documents/${id}`;
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    // A navigation commits after the address changes: the screen is the new one when its title is.
    const shows = async (id: string, fileName: string) => {
      await waitForPath(page, pathOf(id));
      await expectText(page.getByRole('heading', { level: 1 }), fileName);
      await page.getByRole('img', { name: 'Page 1 of the document' }).waitFor();
    };
    await page.goto(pathOf(clean.id));
    await shows(clean.id, clean.fileName);

    // N goes into the values (none asks for a look here: the first one); Enter saves and moves on; Esc
    // leaves the field; A approves and opens the next document that needs a look.
    await page.keyboard.press('n');
    await expect.poll(focused).toMatch(/^review-/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe('');
    await page.keyboard.press('a');
    await shows(unsure.id, unsure.fileName);

    // J and K walk the flow's list: from here one of them leads back to the first document.
    const here = await getApiJson<{ previousId: string | null; nextId: string | null }>(
      page,
      `/api/documents/${unsure.id}/review`,
    );
    const [back, forth] = here.body.previousId === clean.id ? ['k', 'j'] : ['j', 'k'];
    await page.keyboard.press(back);
    await shows(clean.id, clean.fileName);
    await page.keyboard.press(forth);
    await shows(unsure.id, unsure.fileName);

    // N lands on the value that asks for a look; Ctrl+Enter approves from inside it.
    await page.keyboard.press('n');
    await expect.poll(focused).toBe('review-vendorName');
    await page.keyboard.press('Control+Enter');
    await expectText(page.getByTestId('review-trail'), /approved the document/);
    await screenshot(page, 'review-03-keyboard-approved');

    for (const doc of [clean, unsure]) {
      const review = await getApiJson<ReviewBody>(page, `/api/documents/${doc.id}/review`);
      expect(review.body.document.reviewFlag).toBe('approved');
    }
    const rows = await readWorkbookRows(page, flowId);
    expect(rows.map((r) => r.Review)).toEqual(['Approved', 'Approved']);
  });

  it('holds a second upload of the same invoice out of the sheet until a person says it is not a copy', async () => {
    const page = await app.newPage({ viewport: { width: 1366, height: 900 } });
    await createUser(page, { emailPrefix: 'copies' });
    const flowId = await createFlow(page);
    await uploadFixtures(page, flowId, { 'invoice-018.pdf': 'invoice-018.pdf' });
    await uploadFixtures(page, flowId, { 'scan-from-accounts.pdf': 'invoice-018.pdf' });
    expect((await readWorkbookRows(page, flowId)).map((r) => r['File Name'])).toEqual(['invoice-018.pdf']);

    // The review queue lists the copy (the original reads clean and is in the sheet), and finds it by its
    // number; it opens from there.
    await page.goto('/review');
    const rows = page.getByTestId('queue-row');
    await expectCount(rows, 1);
    await page.getByLabel('Search by document number, GSTIN or vendor').fill('no-such-number');
    await expectCount(rows, 0);
    await page.getByLabel('Search by document number, GSTIN or vendor').fill('ti-01650');
    await expectCount(rows, 1);
    await expectText(rows.filter({ hasText: 'scan-from-accounts.pdf' }), /already read/);
    await screenshot(page, 'review-06-queue');
    await rows.filter({ hasText: 'scan-from-accounts.pdf' }).getByRole('link').click();

    // The copy says what it copies, with a link to it.
    const card = page.locator(`[data-flow-id="${flowId}"]`);
    const notice = page.getByTestId('duplicate-notice');
    await expectText(notice, /It looks like invoice-018\.pdf in “Purchase bills”, already read/);
    await screenshot(page, 'review-05-possible-duplicate');

    // Not a copy after all: approved, it joins the sheet.
    const copyId = page.url().split('/').at(-1)!;
    await page
      .getByTestId('duplicate-notice')
      .getByRole('button', { name: 'Not a duplicate — approve' })
      .click();
    await expect
      .poll(
        async () => (await getApiJson<ReviewBody>(page, `/api/documents/${copyId}/review`)).body.approvedBy,
      )
      .toBe('Asha Verma');
    expect((await readWorkbookRows(page, flowId)).map((r) => r['File Name']).sort()).toEqual([
      'invoice-018.pdf',
      'scan-from-accounts.pdf',
    ]);

    // Removing it from the inbox takes its rows out again.
    await page.goto('/parse');
    await card.getByRole('button', { name: 'Documents' }).click();
    const inbox = page.getByRole('dialog');
    await inbox.getByRole('button', { name: 'Remove scan-from-accounts.pdf from this flow' }).click();
    await inbox.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect
      .poll(async () => (await readWorkbookRows(page, flowId)).map((r) => r['File Name']))
      .toEqual(['invoice-018.pdf']);
  });

  it('fits a phone: the page above, the values below', async () => {
    const page = await app.newPage({ viewport: { width: 390, height: 844 } });
    await createUser(page, { emailPrefix: 'phone-review' });
    const flowId = await createReviewedFlow(page);
    const docs = await getApiJson<{ items: Array<{ id: string }> }>(page, `/api/flows/${flowId}/documents`);
    await page.goto(`/flows/${flowId}/documents/${docs.body.items[0]!.id}`);
    await page.getByRole('img', { name: 'Page 1 of the document' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'review-04-phone');
    await screenshot(page, 'review-04b-phone-full', { fullPage: true });
    // At a desktop width the page sits beside its values.
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'review-04c-desktop-1280');
    // The way back opens the flow's sheet on its own route.
    await page.getByRole('link', { name: 'Purchase bills' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe(`/flows/${flowId}/sheet`);
    await page.getByTestId('sheet-row').first().waitFor();
    await screenshot(page, 'review-04d-sheet-route-1280');
  });
});
