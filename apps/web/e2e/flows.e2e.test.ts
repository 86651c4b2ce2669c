import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  createUser,
  expectCount,
  expectText,
  getApiJson,
  type Locator,
  type Page,
  setupApp,
} from './support/harness.ts';

// Processing flows end to end in a real browser against the real server: create an upload flow,
// upload invoices, run it, watch live progress, and read the rows back in the sheet view — checked
// against what the extraction CLI prints for the same files.

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const firstBatch = ['invoice-002.pdf', 'invoice-003.pdf', 'invoice-004.pdf'].map((f) => join(fixtures, f));
const laterFile = join(fixtures, 'invoice-018.pdf');

/** Screenshots a person looks at; kept out of the repository. */
const shotsDir = process.env.FLOWS_SHOTS_DIR ?? '/tmp/shots-flows';

/** Saves a full-page screenshot under `shotsDir`. */
async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(shotsDir, { recursive: true });
  // Finished animations: a sheet caught mid-slide would look broken in the picture.
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** The fields of one `extraction/v1` line the test compares. */
interface Extraction {
  file: string;
  fields: Record<string, string | number | null>;
  error: unknown;
}

/** Runs the engine's own CLI on `files` (the same code the server calls) and parses its NDJSON. */
async function extractWithCli(files: string[]): Promise<Map<string, Extraction>> {
  const bin = join(repoRoot, 'packages/engine/bin/bahi.mjs');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, 'extract', '--type', 'invoice', ...files],
    {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const byName = new Map<string, Extraction>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const doc = JSON.parse(line) as Extraction;
    byName.set(doc.file.split('/').pop() ?? doc.file, doc);
  }
  return byName;
}

const money = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Visible text of an element, trimmed. */
async function readText(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/** The flow card of the flow named `name`. */
function flowCard(page: Page, name: string) {
  return page.getByTestId('flow-card').filter({ has: page.getByRole('heading', { name }) });
}

/**
 * Clicks Run on the card and waits for the run to end, recording every progress percentage the bar
 * showed. Returns those percentages.
 */
async function runFlowAndWatch(page: Page, name: string): Promise<number[]> {
  const card = flowCard(page, name);
  // A previous run's finished bar lingers a few seconds; let it go so it isn't mistaken for this run's.
  await page
    .locator('[data-testid="run-progress"][data-state="finished"]')
    .waitFor({ state: 'detached', timeout: 10_000 });
  // Record what the bar shows as it changes, even between polls of the test.
  await page.evaluate(() => {
    const w = window as unknown as { __percents: number[]; __observer?: MutationObserver };
    w.__percents = [];
    w.__observer?.disconnect();
    const read = () => {
      for (const el of document.querySelectorAll('[data-testid="run-progress"]')) {
        const value = Number(el.getAttribute('data-percent'));
        if (w.__percents[w.__percents.length - 1] !== value) w.__percents.push(value);
      }
    };
    w.__observer = new MutationObserver(read);
    w.__observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await card.getByTestId('run-flow').click();
  // While the run is going, the button is disabled and says so.
  await expectText(card.getByTestId('run-flow'), 'Running', 10_000).catch(() => undefined);
  await page.getByTestId('run-progress').waitFor({ timeout: 20_000 });
  await page.locator('[data-testid="run-progress"][data-state="finished"]').waitFor({ timeout: 90_000 });
  await expect.poll(() => card.getByTestId('run-flow').isEnabled(), { timeout: 10_000 }).toBe(true);
  return page.evaluate(() => (window as unknown as { __percents: number[] }).__percents);
}

/** Uploads files through the flow's documents panel and waits until the inbox lists `expected` entries. */
async function uploadThroughPanel(
  page: Page,
  name: string,
  files: string[],
  expected: number,
): Promise<void> {
  const panel = page.getByRole('dialog', { name: `${name} — documents` });
  // Saving a new upload flow opens its panel by itself; otherwise open it from the card.
  const opened = await panel.waitFor({ timeout: 3_000 }).then(
    () => true,
    () => false,
  );
  if (!opened) await flowCard(page, name).getByRole('button', { name: 'Documents' }).click();
  await panel.waitFor();
  await panel.getByTestId('upload-input').setInputFiles(files);
  await expectCount(panel.getByTestId('inbox-document'), expected, 30_000);
}

describe('processing flows', () => {
  const app = setupApp();

  it('creates an upload flow, runs it live and shows the extracted rows in the sheet view', async () => {
    const page = await app.newPage();
    // Which run endpoints the page used: the live stream, not only polling.
    const streams: Array<{ url: string; status: number }> = [];
    page.on('response', (response) => {
      if (/\/api\/runs\/[^/]+\/events$/.test(response.url())) {
        streams.push({ url: response.url(), status: response.status() });
      }
    });
    await createUser(page);

    // Empty Parse page.
    await page.goto('/parse');
    await page.getByText('No processing flows yet').waitFor();
    await shoot(page, '01-parse-empty');

    // Create the flow in the side sheet: Save is disabled until the form is complete.
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.waitFor();
    const save = form.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await form.getByLabel('Flow name').fill('Vendor invoices');
    await form.getByText('INVOICE', { exact: true }).click();
    // One type only: ticking PO replaces INVOICE, ticking PO again clears it.
    await form.getByText('PO', { exact: true }).click();
    expect(await form.getByTestId('type-INVOICE').isChecked()).toBe(false);
    expect(await form.getByTestId('type-PO').isChecked()).toBe(true);
    await form.getByText('PO', { exact: true }).click();
    expect(await form.getByTestId('type-PO').isChecked()).toBe(false);
    await form.getByText('INVOICE', { exact: true }).click();
    await form.getByLabel('Output sheet name').fill('Invoices FY 2025-26');
    // This server has no Google client: Drive is greyed out with the reason, as the Sheets output is.
    expect(await form.getByTestId('source-drive').isDisabled()).toBe(true);
    await expectText(
      form.getByTestId('drive-unavailable'),
      /Google Drive needs Google, which is not set up on this server/,
    );
    await shoot(page, '02-create-sheet');
    await form.getByText('Upload files').click();
    expect(await save.isEnabled()).toBe(true);
    await save.click();

    // Saving an upload flow opens its inbox: upload three invoices.
    await uploadThroughPanel(page, 'Vendor invoices', firstBatch, 3);
    const panel = page.getByRole('dialog', { name: 'Vendor invoices — documents' });
    await expectCount(panel.locator('[data-testid="inbox-document"][data-status="new"]'), 3);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    const card = flowCard(page, 'Vendor invoices');
    await expectText(card.getByTestId('flow-status'), 'Not run yet');
    expect(await readText(card)).toContain('Never run');
    await shoot(page, '03-parse-list');
    const flowId = (await card.getAttribute('data-flow-id')) ?? '';

    // Run: progress streams live and reaches 100%.
    // Picture the bar mid-run when the machine is slow enough to catch it, else as it starts.
    const runShot = page
      .locator('[data-testid="run-progress"][data-state="running"]', { hasText: / of 3 documents/ })
      .waitFor({ timeout: 20_000 })
      .catch(() => undefined)
      .then(() => shoot(page, '04-run-in-progress'));
    const percents = await runFlowAndWatch(page, 'Vendor invoices');
    await runShot;
    expect(percents.at(-1)).toBe(100);
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((s) => s.status === 200)).toBe(true);
    await page.getByText(/Run finished — 3 processed, \d+ need review, 0 failed/).waitFor();
    // The badge tells how the run went for the documents, never a bare green "Success" over files to fix.
    await expectText(card.getByTestId('flow-status'), /^Finished — (all 3 OK|\d of 3 needs? attention)$/);
    expect(await readText(card)).toMatch(/Last run (just now|\dm ago)/);

    // The inbox now shows each document's outcome.
    await card.getByRole('button', { name: 'Documents' }).click();
    const inbox = page.getByRole('dialog', { name: 'Vendor invoices — documents' });
    await expectCount(inbox.locator('[data-testid="inbox-document"][data-status="new"]'), 0);
    await expectCount(inbox.getByTestId('inbox-document'), 3);
    await shoot(page, '04b-inbox-after-run');
    await page.keyboard.press('Escape');
    await inbox.waitFor({ state: 'hidden' });

    // The sheet view shows one row per document, equal to what the CLI extracts.
    const expected = await extractWithCli(firstBatch);
    await card.getByTestId('sheet-link').click();
    await page.getByRole('tab', { name: 'Documents' }).waitFor();
    const rows = page.getByTestId('sheet-row');
    await expectCount(rows, 3);
    for (const [fileName, doc] of expected) {
      expect(doc.error).toBe(null);
      const row = rows.filter({ has: page.locator('td[data-key="fileName"]', { hasText: fileName }) });
      await expectCount(row, 1);
      const cell = (key: string) => readText(row.locator(`td[data-key="${key}"]`));
      expect(await cell('documentNumber')).toBe(String(doc.fields.documentNumber ?? ''));
      expect(await cell('vendorGstin')).toBe(String(doc.fields.vendorGstin ?? ''));
      const total = doc.fields.total;
      expect(await cell('total')).toBe(typeof total === 'number' ? money.format(total) : '');
      // The file name opens the document's review screen.
      const href = await row.locator('td[data-key="fileName"] a').getAttribute('href');
      expect(href).toMatch(new RegExp(`^/flows/${flowId}/documents/[0-9a-f-]+$`));
    }
    await shoot(page, '05-sheet-view');

    // Sorting by total (client and server agree): ascending then descending.
    const totals = async () =>
      (await page.locator('td[data-key="total"]').allTextContents()).map((t) =>
        Number(t.replaceAll(',', '')),
      );
    await page.getByRole('button', { name: 'Total', exact: true }).click();
    await expect.poll(totals).toEqual([...(await totals())].sort((a, b) => a - b));
    await page.getByRole('button', { name: 'Total', exact: true }).click();
    await expect.poll(totals).toEqual([...(await totals())].sort((a, b) => b - a));

    // Line items tab has the lines of all three invoices.
    await page.getByRole('tab', { name: 'Line Items' }).click();
    await page.locator('td[data-key="lineNo"]').first().waitFor();
    expect(await rows.count()).toBeGreaterThan(3);
    await shoot(page, '06-sheet-lines');

    // The sheet is its own route: the address names the flow and the tab, and a reload shows the same.
    const address = () => `${new URL(page.url()).pathname}${new URL(page.url()).search}`;
    expect(address()).toBe(`/flows/${flowId}/sheet?tab=lines`);
    await page.reload();
    await page.getByRole('tab', { name: 'Line Items', selected: true }).waitFor();
    await page.locator('td[data-key="lineNo"]').first().waitFor();
    // The links the server writes (`/parse?sheet=<id>`) open the route, keeping the tab.
    await page.goto(`/parse?sheet=${flowId}&tab=lines`);
    await expect.poll(address, { timeout: 15_000 }).toBe(`/flows/${flowId}/sheet?tab=lines`);
    await page.locator('td[data-key="lineNo"]').first().waitFor();

    // Downloads answer with real files.
    const xlsx = await page
      .context()
      .request.get((await page.getByTestId('download-xlsx').getAttribute('href')) ?? '');
    expect(xlsx.status()).toBe(200);
    expect((await xlsx.body()).subarray(0, 2).toString()).toBe('PK');

    // Run again: nothing new, no new rows.
    await page.getByRole('link', { name: 'Document Processing' }).click();
    await card.waitFor();
    await runFlowAndWatch(page, 'Vendor invoices');
    await page.getByText(/Run finished — 0 processed, 0 need review, 0 failed/).waitFor();
    await card.getByTestId('sheet-link').click();
    await expectCount(rows, 3);

    // Add a fourth invoice: one new row.
    await page.getByRole('link', { name: 'Document Processing' }).click();
    await uploadThroughPanel(page, 'Vendor invoices', [laterFile], 4);
    await page.keyboard.press('Escape');
    await runFlowAndWatch(page, 'Vendor invoices');
    await page.getByText(/Run finished — 1 processed, \d+ need review, 0 failed/).waitFor();
    await card.getByTestId('sheet-link').click();
    await expectCount(rows, 4);
    const fourth = (await extractWithCli([laterFile])).get('invoice-018.pdf');
    const row = rows.filter({ has: page.locator('td[data-key="fileName"]', { hasText: 'invoice-018.pdf' }) });
    expect(await readText(row.locator('td[data-key="documentNumber"]'))).toBe(
      String(fourth?.fields.documentNumber ?? ''),
    );

    // A corrupt file fails on its own, with a plain-words reason and a Retry button.
    await page.getByRole('link', { name: 'Document Processing' }).click();
    await uploadThroughPanel(page, 'Vendor invoices', [join(fixtures, 'corrupt-invoice.pdf')], 5);
    await page.keyboard.press('Escape');
    await runFlowAndWatch(page, 'Vendor invoices');
    await page.getByText(/Run finished — 0 processed, 0 need review, 1 failed/).waitFor();
    await card.getByRole('button', { name: 'Documents' }).click();
    const failed = page.locator('[data-testid="inbox-document"][data-status="failed"]');
    await expectCount(failed, 1);
    expect(await readText(failed)).toContain('corrupt-invoice.pdf');
    await failed.getByRole('button', { name: 'Retry' }).waitFor();
    await shoot(page, '07a-inbox-failed');

    // Retry the failed file and re-process a done one: each starts a run; waiting on the API's history.
    const settledRuns = async () => {
      const { body } = await getApiJson<{ items: Array<{ status: string }> }>(
        page,
        `/api/flows/${flowId}/runs`,
      );
      return body.items.every((run) => run.status === 'succeeded' || run.status === 'failed')
        ? body.items.length
        : -1;
    };
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(settledRuns, { timeout: 60_000 }).toBe(5);
    await expectCount(page.locator('[data-testid="inbox-document"][data-status="failed"]'), 1);
    const redo = page.getByTestId('inbox-document').filter({ hasText: 'invoice-003.pdf' });
    await redo.getByRole('button', { name: 'Re-process' }).click();
    await expect.poll(settledRuns, { timeout: 60_000 }).toBe(6);
    await page.keyboard.press('Escape');
    // Re-processing replaced the document's row; it did not add one.
    await card.getByTestId('sheet-link').click();
    await expectCount(rows, 4);
    await expectCount(
      rows.filter({ has: page.locator('td[data-key="fileName"]', { hasText: 'invoice-003.pdf' }) }),
      1,
    );
    await page.getByRole('link', { name: 'Document Processing' }).click();

    // The run history lists all six runs.
    await card.getByRole('button', { name: 'Run history' }).click();
    await expectCount(card.getByRole('table', { name: 'Run history' }).locator('tbody tr'), 6);
    await shoot(page, '07-run-history');

    // Phone width: the list stays readable.
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, '08-parse-list-mobile');
    await card.getByTestId('sheet-link').click();
    await expectCount(rows, 4);
    await shoot(page, '09-sheet-view-mobile');
  });

  it('edits a flow, refuses a folder outside the allowed roots, takes dropped files and deletes with confirmation', async () => {
    const page = await app.newPage();
    await createUser(page, { emailPrefix: 'edit' });
    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.getByLabel('Flow name').fill('Goods receipts');
    await form.getByText('GRN', { exact: true }).click();
    await form.getByLabel('Output sheet name').fill('GRNs');
    // No BAHI_FOLDER_ROOTS on this server: a local folder is refused with the server's reason.
    await form.getByText('Local folder path').click();
    await form.getByLabel('Folder path on the server').fill('/etc');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(form.getByRole('alert').first(), /folder/i);
    await form.getByText('Upload files').click();
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Goods receipts — documents' });
    await panel.waitFor();

    // Drag and drop a file onto the drop zone.
    const bytes = (await readFile(join(fixtures, 'invoice-003.pdf'))).toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([raw], 'dropped-grn.pdf', { type: 'application/pdf' }));
      return transfer;
    }, bytes);
    await panel.getByTestId('upload-drop-zone').dispatchEvent('drop', { dataTransfer });
    await expectCount(panel.locator('[data-testid="inbox-document"][data-status="new"]'), 1);
    expect(await readText(panel.getByTestId('inbox-document'))).toContain('dropped-grn.pdf');

    // What the server does not take is listed with its reason, and only what it added is counted.
    await panel.getByTestId('upload-input').setInputFiles([
      { name: 'ledger.csv', mimeType: 'text/csv', buffer: Buffer.from('gstin,total\n') },
      { name: 'empty.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) },
      {
        name: 'phone-scan.jfif',
        mimeType: 'image/jpeg',
        buffer: await readFile(join(fixtures, 'invoice-004.pdf')),
      },
    ]);
    await page.getByText('1 file added to the inbox; 2 files skipped').waitFor();
    const items = panel.getByTestId('upload-item');
    await expectText(
      items.filter({ hasText: 'ledger.csv' }),
      /Not added — Not a supported document type \(\.csv\)/,
    );
    await expectText(items.filter({ hasText: 'empty.pdf' }), /Not added — The file is empty/);
    await items.filter({ hasText: 'phone-scan.jfif' }).getByLabel('Added').waitFor();
    await expectCount(panel.getByTestId('inbox-document'), 2);
    await shoot(page, '09-upload-skipped-reasons');
    await page.keyboard.press('Escape');

    // Edit: the side sheet opens with the stored values; Update saves the new name.
    const card = flowCard(page, 'Goods receipts');
    await card.getByRole('button', { name: 'Edit Goods receipts' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit flow' });
    expect(await edit.getByLabel('Flow name').inputValue()).toBe('Goods receipts');
    expect(await edit.getByTestId('type-GRN').isChecked()).toBe(true);
    await edit.getByLabel('Flow name').fill('Goods receipts — Pune');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'hidden' });
    const renamed = flowCard(page, 'Goods receipts — Pune');
    await renamed.waitFor();
    await expectText(renamed.locator('.font-mono'), 'GRN');

    // Delete asks first; Cancel keeps the flow, Delete flow removes it.
    await renamed.getByRole('button', { name: 'Delete Goods receipts — Pune' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Goods receipts — Pune?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await renamed.waitFor();
    await renamed.getByRole('button', { name: 'Delete Goods receipts — Pune' }).click();
    await confirm.getByRole('button', { name: 'Delete flow' }).click();
    await page.getByText('No processing flows yet').waitFor();

    // Phone width: the create sheet takes the whole screen and stays usable.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    await page.getByRole('dialog', { name: 'Create New Flow' }).waitFor();
    await shoot(page, '10-create-sheet-mobile');
  });
});
