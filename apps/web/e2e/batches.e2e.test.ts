import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { batchPdf } from '../../server/src/test/batch-pdf.ts';
import {
  createUploadFlow,
  createUser,
  expectCount,
  expectText,
  getApiJson,
  screenshot,
  setupApp,
  uploadAndRun,
} from './support/harness.ts';

// A PDF holding two invoices scanned in one go: the inbox lists two documents with their pages, and the
// second opens on its own page with the boxes of its values.

const serverFixtures = fileURLToPath(new URL('../../server/src/test/fixtures/', import.meta.url));
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a batch of invoices in one PDF', () => {
  const app = setupApp();

  it('becomes two documents, each with its page range, each reviewed on its own pages', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bahi-batch-'));
    const scan = join(dir, 'scan.pdf');
    await writeFile(
      scan,
      await batchPdf(['invoice-018.pdf', 'invoice-040.pdf'].map((f) => join(serverFixtures, f))),
    );
    const page = await app.newPage({ viewport: { width: 1280, height: 900 } });
    await createUser(page, { emailPrefix: 'batch' });
    const flowId = await createUploadFlow(page, 'Scanned bills');
    await uploadAndRun(page, flowId, { 'scan.pdf': scan });

    await page.goto('/parse');
    await page.locator(`[data-flow-id="${flowId}"]`).getByRole('button', { name: 'Documents' }).click();
    const inbox = page.getByRole('dialog', { name: 'Scanned bills — documents' });
    const rows = inbox.getByTestId('inbox-document');
    await expectCount(rows, 2);
    const ranges = await rows.getByTestId('document-pages').allInnerTexts();
    expect(ranges.sort()).toEqual(['Page 1 of scan.pdf', 'Page 2 of scan.pdf']);
    await screenshot(page, 'batch-01-inbox');

    const second = rows.filter({ hasText: 'Page 2 of scan.pdf' });
    await second.getByRole('link', { name: 'scan.pdf', exact: true }).click();
    await page.waitForURL(new RegExp(`/flows/${flowId}/documents/[0-9a-f-]+$`));
    const documentId = page.url().split('/').at(-1)!;
    await expectText(page.getByTestId('review-document-pages'), 'Page 2 of scan.pdf', 30_000);
    const review = await getApiJson<{ pages: Array<{ number: number }>; document: { pageRange: number[] } }>(
      page,
      `/api/documents/${documentId}/review`,
    );
    expect(review.body.document.pageRange).toEqual([2, 2]);
    expect(review.body.pages.map((p) => p.number)).toEqual([2]);
    // Only its own page is shown, and a value's box is drawn on it (read on the file's page 2).
    await expectText(page.getByText(/^Page \d+ of \d+$/), 'Page 1 of 1');
    const picture = page.getByRole('img', { name: 'Page 1 of the document' });
    await picture.waitFor();
    await page
      .getByTestId('field-box')
      .waitFor({ state: 'detached' })
      .catch(() => {});
    await screenshot(page, 'batch-02-review-header');
    await page.getByLabel('Total', { exact: true }).focus();
    await page.getByTestId('field-box').waitFor();
    await screenshot(page, 'batch-02-review-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectText(page.getByTestId('review-document-pages'), 'Page 2 of scan.pdf');
    await screenshot(page, 'batch-03-review-phone');
  });
});
