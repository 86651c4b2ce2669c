import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type GoogleStandIn, startGoogleStandIn } from '../../server/src/test/google-stand-in.ts';
import { createUser, expectText, getApiJson, type Page, setupApp } from './support/harness.ts';

// The Parse page's Google side in a real browser against the real server and the loopback stand-in of
// Google: a flow with a Google Sheets output created while Google is disconnected opens the authorisation
// dialog, consent happens in the popup, and the flow is saved with the spreadsheet the server created; a
// run that fails on a revoked grant offers the dialog again and runs once authorised; a Drive folder link
// offers "Include sub-folders", and the run reads them. Screenshots go to /tmp/shots-fg.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const shotsDir = process.env.FLOWS_GOOGLE_SHOTS_DIR ?? '/tmp/shots-fg';

async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

/** A flow as `GET /api/workflows` answers it (the fields this test reads). */
interface WorkflowBody {
  id: string;
  name: string;
  status: string;
  io: { input: { kind: string; url: string }; output: { kind: string; sheetId: string; sheetName: string } };
}

describe('Google not configured', () => {
  const app = setupApp();

  it('disables the Google Sheets output with a pointer to Integrations; workbooks still work', async () => {
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.waitFor();
    await expectText(
      form.getByTestId('sheets-unavailable'),
      /Google Sheets needs Google, which is not set up/,
    );
    await expectText(form.getByTestId('drive-unavailable'), /Google Drive needs Google, which is not set up/);
    expect(await form.getByTestId('source-drive').isDisabled()).toBe(true);
    expect(await form.getByTestId('output-sheets').isDisabled()).toBe(true);
    expect(await form.getByTestId('output-xlsx').isChecked()).toBe(true);
    expect(
      await form
        .getByTestId('sheets-unavailable')
        .getByRole('link', { name: 'How to set up Google' })
        .getAttribute('href'),
    ).toBe('/integrations');
    await shoot(page, '1-not-configured-form');
  });
});

describe('Google configured', () => {
  let google: GoogleStandIn | undefined;
  const app = setupApp(async () => {
    google = await startGoogleStandIn({ email: 'accounts@asha-traders.in' });
    return {
      env: {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
        GOOGLE_OAUTH_BASE_URL: google.url,
        GOOGLE_API_BASE_URL: google.url,
        GOOGLE_DISCOVERY_URL: `${google.url}/.well-known/openid-configuration`,
      },
    };
  });
  afterAll(async () => {
    await google?.close();
  });

  it('authorises in the dialog while creating a Google Sheets flow, saves it with its spreadsheet, and re-authorises a run', async () => {
    const stand = google!;
    const folder = stand.addFolder('Purchase invoices');
    stand.addFile({
      name: 'invoice-002.pdf',
      mimeType: 'application/pdf',
      content: await readFile(join(fixtures, 'invoice-002.pdf')),
      parent: folder,
    });

    const page = await app.newPage();
    await createUser(page);
    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.waitFor();
    await form.getByLabel('Flow name').fill('Drive invoices');
    await form.getByText('INVOICE', { exact: true }).click();
    await form.getByText('Google Drive link').click();
    await form
      .getByLabel('Google Drive folder or file link')
      .fill(`https://drive.google.com/drive/folders/${folder}`);
    await form.getByText('Google Sheets', { exact: true }).click();
    expect(await form.getByTestId('output-sheets').isChecked()).toBe(true);
    await expectText(form.getByTestId('sheets-note'), /Saving asks you to authorise Google/);
    await form.getByLabel('Output sheet name').fill('Invoices FY 2025-26');
    await shoot(page, '2-create-form-sheets');

    // Save while disconnected: the authorisation dialog, not a saved flow.
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Google' });
    await dialog.waitFor();
    await expectText(
      dialog,
      /Google authorization required\. Please authorize access to your Google account\./,
    );
    expect((await getApiJson<WorkflowBody[]>(page, '/api/workflows')).body).toEqual([]);
    await shoot(page, '3-auth-dialog');

    // Google refuses the code exchange once: the dialog stays, with the error, and nothing is saved.
    stand.inject({ method: 'POST', path: /^\/token$/, kind: 'status', status: 400 });
    const failingPopup = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Authorize Google' }).click();
    await (await failingPopup).waitForEvent('close', { timeout: 20_000 });
    await expectText(dialog.getByRole('alert'), 'Authentication failed');
    expect((await getApiJson<WorkflowBody[]>(page, '/api/workflows')).body).toEqual([]);
    await shoot(page, '3b-auth-dialog-error');

    // Consent in the 600×600 popup; the dialog closes and the pending creation continues.
    const popupPromise = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Authorize Google' }).click();
    const popup = await popupPromise;
    await popup.waitForEvent('close', { timeout: 20_000 });
    await dialog.waitFor({ state: 'hidden' });
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Flow created' }).first(),
      /Flow created/,
    );
    await form.waitFor({ state: 'hidden' });

    const flows = (await getApiJson<WorkflowBody[]>(page, '/api/workflows')).body;
    expect(flows).toHaveLength(1);
    const flow = flows[0]!;
    expect(flow.io.output.kind).toBe('sheets');
    expect(flow.io.output.sheetName).toBe('Invoices FY 2025-26');
    expect(flow.io.output.sheetId).not.toBe('');
    const spreadsheet = stand.spreadsheets.get(flow.io.output.sheetId);
    expect(spreadsheet?.title).toBe('Invoices FY 2025-26');
    expect(spreadsheet?.sheets.map((s) => s.title)).toEqual(['Documents', 'Line Items']);
    // Exactly one spreadsheet: the continuation did not create a second flow or sheet.
    expect(stand.spreadsheets.size).toBe(1);

    // The card links the spreadsheet on Google (new tab) and keeps the in-app sheet view.
    const card = page.getByTestId('flow-card').filter({ hasText: 'Drive invoices' });
    const googleLink = card.getByTestId('google-sheet-link');
    await googleLink.waitFor();
    expect(await googleLink.getAttribute('href')).toBe(
      `https://docs.google.com/spreadsheets/d/${flow.io.output.sheetId}/edit`,
    );
    expect(await googleLink.getAttribute('target')).toBe('_blank');
    expect(await card.getByTestId('sheet-link').getAttribute('href')).toBe(`/flows/${flow.id}/sheet`);
    await shoot(page, '4-flow-saved');

    // The user removes Bahi's access in their Google account: the run fails on authorisation and the card
    // offers the dialog.
    stand.revokeAll();
    stand.expireAccessTokens();
    await card.getByTestId('run-flow').click();
    const alert = card.getByTestId('google-auth-required');
    await expectText(
      alert,
      /Google authorization required\. Please authorize access to your Google account\./,
      60_000,
    );
    await shoot(page, '5-run-auth-required');

    const again = page.waitForEvent('popup');
    await alert.getByRole('button', { name: 'Authorize Google' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Authorize Google' }).click();
    await (await again).waitForEvent('close', { timeout: 20_000 });
    await dialog.waitFor({ state: 'hidden' });
    await alert.waitFor({ state: 'hidden' });

    // Authorised again, the run goes ahead and the spreadsheet gets the document's row.
    await expectText(card.getByTestId('flow-status'), /^Finished — /, 120_000);
    await expect.poll(() => (spreadsheet?.sheets[0]?.rows.length ?? 0) - 1, { timeout: 30_000 }).toBe(1);
    await shoot(page, '6-run-after-reauthorising');

    // The in-app sheet view of a Google flow shows the same row.
    await card.getByTestId('sheet-link').click();
    await page.getByRole('tab', { name: 'Documents' }).waitFor();
    await expect.poll(() => page.getByTestId('sheet-row').count(), { timeout: 15_000 }).toBe(1);
    await shoot(page, '6b-in-app-sheet-view');
  });

  it('opens the dialog when sheet creation answers 401 (revoked grant) and finishes the same flow after authorising', async () => {
    const stand = google!;
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/integrations');
    const connectPopup = page.waitForEvent('popup');
    await page.getByTestId('google-card').getByRole('button', { name: 'Connect Google' }).click();
    await (await connectPopup).waitForEvent('close', { timeout: 20_000 });
    await expectText(page.getByTestId('google-card').getByTestId('google-badge'), 'Connected');
    // Access removed on Google's side: Bahi still believes it is connected until it calls Google.
    stand.revokeAll();
    stand.expireAccessTokens();
    const sheetsBefore = stand.spreadsheets.size;

    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.waitFor();
    await form.getByLabel('Flow name').fill('GRN register');
    await form.getByText('GRN', { exact: true }).click();
    await form.getByText('Google Sheets', { exact: true }).click();
    await expectText(form.getByTestId('sheets-note'), /Bahi creates a Google spreadsheet/);
    await form.getByLabel('Output sheet name').fill('GRNs');
    await form.getByRole('button', { name: 'Save', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Connect Google' });
    await dialog.waitFor();
    // The modal dialog hides the form from the accessibility tree, so the form's alert is found by CSS.
    await expectText(page.locator('form [role="alert"]').first(), /The flow is saved\. Authorise Google/);
    await shoot(page, '7-sheet-create-401-dialog');
    const popupPromise = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Authorize Google' }).click();
    await (await popupPromise).waitForEvent('close', { timeout: 20_000 });
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Flow created' }).first(),
      /Flow created/,
    );
    await expect.poll(() => page.locator('form').count()).toBe(0);

    // One flow (the retry updated it rather than creating a twin), now holding its new spreadsheet.
    const flows = (await getApiJson<WorkflowBody[]>(page, '/api/workflows')).body;
    expect(flows.map((f) => f.name)).toEqual(['GRN register']);
    const sheetId = flows[0]!.io.output.sheetId;
    expect(flows[0]!.io.output.kind).toBe('sheets');
    expect(stand.spreadsheets.get(sheetId)?.title).toBe('GRNs');
    expect(stand.spreadsheets.size).toBe(sheetsBefore + 1);
    await page.getByTestId('flow-card').getByTestId('google-sheet-link').waitFor();

    // Editing the flow keeps its spreadsheet: no second one is created.
    // (A new upload flow opens its inbox first; close it.)
    const inbox = page.getByRole('dialog', { name: 'GRN register — documents' });
    await inbox.waitFor();
    await page.keyboard.press('Escape');
    await inbox.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit GRN register' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit flow' });
    await edit.waitFor();
    expect(await edit.getByTestId('output-sheets').isChecked()).toBe(true);
    await expectText(edit.getByTestId('sheets-note'), /appended to this flow's Google spreadsheet/);
    await edit.getByLabel('Flow name').fill('GRN register — Pune');
    await shoot(page, '8-edit-google-flow');
    await edit.getByRole('button', { name: 'Update', exact: true }).click();
    await edit.waitFor({ state: 'hidden' });
    const after = (await getApiJson<WorkflowBody[]>(page, '/api/workflows')).body;
    expect(after.map((f) => [f.name, f.io.output.sheetId])).toEqual([['GRN register — Pune', sheetId]]);
    expect(stand.spreadsheets.size).toBe(sheetsBefore + 1);
  });

  it('offers "Include sub-folders" for a Drive folder link only, saves it, and the run reads the sub-folders', async () => {
    const stand = google!;
    const folder = stand.addFolder('Branch invoices');
    const pune = stand.addFolder('Pune', folder);
    stand.addFile({
      name: 'invoice-002.pdf',
      mimeType: 'application/pdf',
      content: await readFile(join(fixtures, 'invoice-002.pdf')),
      parent: folder,
    });
    stand.addFile({
      name: 'invoice-003.pdf',
      mimeType: 'application/pdf',
      content: await readFile(join(fixtures, 'invoice-003.pdf')),
      parent: pune,
    });
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/integrations');
    const connectPopup = page.waitForEvent('popup');
    await page.getByTestId('google-card').getByRole('button', { name: 'Connect Google' }).click();
    await (await connectPopup).waitForEvent('close', { timeout: 20_000 });
    await expectText(page.getByTestId('google-card').getByTestId('google-badge'), 'Connected');

    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.waitFor();
    await form.getByLabel('Flow name').fill('All branches');
    await form.getByText('INVOICE', { exact: true }).click();
    await form.getByText('Google Drive link').click();
    const checkbox = form.getByTestId('include-subfolders');
    const link = form.getByLabel('Google Drive folder or file link');
    // No link yet, a file link: nothing to include.
    expect(await checkbox.count()).toBe(0);
    await link.fill(`https://drive.google.com/file/d/${folder}/view`);
    expect(await checkbox.count()).toBe(0);
    await link.fill(`https://drive.google.com/drive/folders/${folder}`);
    await checkbox.waitFor();
    expect(await checkbox.isChecked()).toBe(false);
    await form.getByText('Google Sheets', { exact: true }).click();
    await form.getByLabel('Output sheet name').fill('All branches');
    await form.getByLabel('Include sub-folders').check();
    expect(await checkbox.isChecked()).toBe(true);
    await shoot(page, '9-include-subfolders');
    // A local folder has no such option (it is always read with its sub-folders).
    await form.getByText('Local folder path').click();
    expect(await checkbox.count()).toBe(0);
    await form.getByText('Google Drive link').click();
    await checkbox.waitFor();
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await form.waitFor({ state: 'hidden' });

    const flows = (
      await getApiJson<Array<WorkflowBody & { io: { input: { includeSubfolders?: boolean } } }>>(
        page,
        '/api/workflows',
      )
    ).body;
    expect(flows).toHaveLength(1);
    expect(flows[0]!.io.input.includeSubfolders).toBe(true);
    const spreadsheet = stand.spreadsheets.get(flows[0]!.io.output.sheetId)!;

    const card = page.getByTestId('flow-card').filter({ hasText: 'All branches' });
    await card.getByTestId('run-flow').click();
    await expectText(card.getByTestId('flow-status'), /^Finished — /, 120_000);
    // Both documents — the folder's own and the one in its sub-folder — are in the spreadsheet, once.
    await expect.poll(() => (spreadsheet.sheets[0]?.rows.length ?? 0) - 1, { timeout: 30_000 }).toBe(2);
    const fileNames = spreadsheet.sheets[0]!.rows.slice(1).flat().join(' ');
    expect(fileNames).toContain('Pune/invoice-003.pdf');

    // Editing shows the option as saved.
    await page.getByRole('button', { name: 'Edit All branches' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit flow' });
    await edit.waitFor();
    expect(await edit.getByTestId('include-subfolders').isChecked()).toBe(true);
    await expectText(edit.getByTestId('sheets-note'), /a re-processed document's rows are replaced/);
    await page.waitForTimeout(500); // the side sheet's slide-in, for the picture
    await shoot(page, '10-edit-include-subfolders');
  });
});
