import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeReviewReason } from '@bahi/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { type GoogleStandIn, startGoogleStandIn } from '../../server/src/test/google-stand-in.ts';
import { createUser, expectText, getApiJson, type Page, setupApp } from './support/harness.ts';

// Google Drive + Sheets in a real browser against the real server and a loopback stand-in of Google:
// connect through the 600×600 popup, set up a folder and a vendor sheet, run a flow from a Drive folder
// into a Google sheet (rows = what the engine produced, once), disconnect. Screenshots of each state of the
// Integrations page go to /tmp/shots-google.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const shotsDir = process.env.GOOGLE_SHOTS_DIR ?? '/tmp/shots-google';

async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

/** A sheet column as the API describes it. */
interface SheetColumn {
  key: string;
  kind: 'text' | 'date' | 'datetime' | 'money' | 'number' | 'link';
}

/** How a value reads back from a Google sheet written with RAW input (what the stand-in stores). */
function toSheetCell(column: SheetColumn, value: unknown): string {
  if (value === null || value === undefined) return '';
  // What a person reads: the verdict and the checks in words, the time as India's wall clock.
  if (column.key === 'reviewFlag')
    return value === 'ok' ? 'OK' : value === 'review' ? 'Needs review' : String(value);
  if (column.key === 'checksFailed')
    return String(value).split(/,\s*/).filter(Boolean).map(describeReviewReason).join('; ');
  if (column.kind === 'datetime') {
    const ist = new Date(new Date(String(value)).getTime() + 330 * 60_000);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(ist.getUTCDate())}-${two(ist.getUTCMonth() + 1)}-${ist.getUTCFullYear()} ${two(ist.getUTCHours())}:${two(ist.getUTCMinutes())}`;
  }
  if ((column.kind === 'money' || column.kind === 'number') && value !== '' && Number.isFinite(Number(value)))
    return String(Number(value));
  const date = column.kind === 'date' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value)) : null;
  if (date) {
    const days =
      (Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) - Date.UTC(1899, 11, 30)) / 86_400_000;
    return String(Math.round(days));
  }
  return String(value);
}

/** Header fields per file name from the engine's own CLI (the code the server runs). */
async function extractWithCli(files: string[]): Promise<Map<string, Record<string, unknown>>> {
  const bin = join(repoRoot, 'packages/engine/bin/bahi.mjs');
  const args = [bin, 'extract', '--type', 'invoice', ...files];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  const byName = new Map<string, Record<string, unknown>>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const doc = JSON.parse(line) as { file: string; fields: Record<string, unknown> };
    byName.set(doc.file.split('/').pop() ?? doc.file, doc.fields);
  }
  return byName;
}

/** Posts JSON with the page's session (same origin, so the CSRF guard lets it through). */
async function postApi<T>(page: Page, path: string, body: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { path, body },
  );
}

describe('Google not configured', () => {
  const app = setupApp();

  it('explains how to configure Google and keeps local features working', async () => {
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/integrations');
    const card = page.getByTestId('google-card');
    await expectText(card.getByTestId('google-badge'), 'Not configured');
    await expectText(card.getByTestId('google-note'), /GOOGLE_CLIENT_ID/);
    expect(await card.getByRole('button', { name: 'Connect Google' }).count()).toBe(0);
    await shoot(page, '1-not-configured');
  });
});

describe('Google connected', () => {
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

  it('connects in a popup, sets up a folder and a sheet, verifies, and disconnect clears everything', async () => {
    const stand = google!;
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/integrations');
    const card = page.getByTestId('google-card');
    await expectText(card.getByTestId('google-badge'), 'Disconnected');
    await shoot(page, '2-disconnected');

    const popupPromise = page.waitForEvent('popup');
    await card.getByRole('button', { name: 'Connect Google' }).click();
    const popup = await popupPromise;
    // The popup is 600×600 and closes itself after posting oauth-complete.
    expect(popup.viewportSize()?.width ?? 600).toBeLessThanOrEqual(600);
    await popup.waitForEvent('close', { timeout: 20_000 });
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Google connected' }).first(),
      /Google connected/,
    );
    await expectText(card.getByTestId('google-badge'), 'Connected');
    await expectText(card.getByTestId('google-email'), /accounts@asha-traders\.in/);
    await expectText(card, /spreadsheets/);

    await card.getByRole('button', { name: 'Create folder' }).click();
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Folder created' }).first(),
      /Folder created/,
    );
    await card.getByRole('button', { name: 'Create sheet' }).click();
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Sheet created' }).first(),
      /Sheet created/,
    );
    await card.getByRole('button', { name: 'Refresh' }).click();
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Connection verified' }).first(),
      /Connection verified/,
    );
    await expect
      .poll(
        async () => (await getApiJson<{ vendorSheet: unknown }>(page, '/api/google/status')).body.vendorSheet,
      )
      .not.toBeNull();
    await shoot(page, '3-connected');

    await card.getByRole('button', { name: 'Disconnect' }).click();
    await expectText(
      page.locator('[data-sonner-toast]').filter({ hasText: 'Google disconnected' }).first(),
      /Google disconnected/,
    );
    await expectText(card.getByTestId('google-badge'), 'Disconnected');
    const status = await getApiJson<{ connected: boolean; parentFolder: unknown; vendorSheet: unknown }>(
      page,
      '/api/google/status',
    );
    expect(status.body).toMatchObject({ connected: false, parentFolder: null, vendorSheet: null });
    expect(stand.liveRefreshTokens.size).toBe(0);
    expect(stand.listPaths()).toContain('POST /revoke');
    await shoot(page, '4-after-disconnect');
  });

  it('runs a flow from a Drive folder into a Google sheet: rows = the engine output, a re-run adds none', async () => {
    const stand = google!;
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/integrations');
    const popupPromise = page.waitForEvent('popup');
    await page.getByTestId('google-card').getByRole('button', { name: 'Connect Google' }).click();
    await (await popupPromise).waitForEvent('close', { timeout: 20_000 });
    await expectText(page.getByTestId('google-card').getByTestId('google-badge'), 'Connected');

    const folder = stand.addFolder('Purchase invoices');
    for (const name of ['invoice-002.pdf', 'invoice-003.pdf'])
      stand.addFile({
        name,
        mimeType: 'application/pdf',
        content: await readFile(join(fixtures, name)),
        parent: folder,
      });

    const created = await postApi<{ id: string }>(page, '/api/workflows', {
      name: 'Drive invoices',
      types: ['INVOICE'],
      io: {
        input: {
          kind: 'drive',
          url: `https://drive.google.com/drive/folders/${folder}`,
          folderName: 'Purchase invoices',
        },
        output: { kind: 'sheets', sheetId: '', sheetName: 'Drive invoices' },
      },
    });
    expect(created.status).toBeLessThan(300);
    const sheet = await postApi<{ sheetId: string }>(page, '/api/workflow/sheets/create', {
      workflowId: created.body.id,
      sheetName: 'Drive invoices',
    });
    expect(sheet.status).toBe(200);
    const spreadsheet = stand.spreadsheets.get(sheet.body.sheetId);
    expect(spreadsheet?.sheets.map((s) => s.title)).toEqual(['Documents', 'Line Items']);

    const runOnce = async () => {
      const run = await postApi<{ runId: string }>(page, '/api/workflow/process-folder', {
        workflowId: created.body.id,
      });
      expect(run.status).toBeLessThan(300);
      await expect
        .poll(
          async () => (await getApiJson<{ status: string }>(page, `/api/runs/${run.body.runId}`)).body.status,
          {
            timeout: 90_000,
            interval: 500,
          },
        )
        .toMatch(/succeeded|failed/);
      return (await getApiJson<{ status: string }>(page, `/api/runs/${run.body.runId}`)).body;
    };
    expect((await runOnce()).status).toBe('succeeded');

    // The sheet holds exactly the flow's rows (the engine's output as stored), cell for cell, in Sheets'
    // encoding: numbers as numbers, dates as day serials, the hidden last column keying each row.
    const view = await getApiJson<{ rows: Array<Record<string, unknown>>; columns: SheetColumn[] }>(
      page,
      `/api/flows/${created.body.id}/sheet?tab=documents`,
    );
    const docsTab = spreadsheet!.sheets[0]!;
    expect(view.body.rows.length).toBe(2);
    const fileIndex = view.body.columns.findIndex((c) => c.key === 'fileName');
    const byFile = (rows: string[][]) =>
      [...rows].sort((a, b) => String(a[fileIndex]).localeCompare(String(b[fileIndex])));
    const expected = view.body.rows.map((r) => view.body.columns.map((c) => toSheetCell(c, r[c.key])));
    const actual = docsTab.rows.slice(1).map((r) => r.slice(0, view.body.columns.length));
    expect(byFile(actual)).toEqual(byFile(expected));
    const lines = await getApiJson<{ total: number }>(page, `/api/flows/${created.body.id}/sheet?tab=lines`);
    expect(lines.body.total).toBeGreaterThan(0);
    expect(spreadsheet!.sheets[1]!.rows.length - 1).toBe(lines.body.total);

    // And those are the engine's own answers: its CLI on the same files gives the same document numbers.
    const cli = await extractWithCli(['invoice-002.pdf', 'invoice-003.pdf'].map((f) => join(fixtures, f)));
    const numberIndex = view.body.columns.findIndex((c) => c.key === 'documentNumber');
    for (const row of docsTab.rows.slice(1)) {
      expect(row[numberIndex]).toBe(String(cli.get(String(row[fileIndex]))?.documentNumber ?? ''));
    }

    expect((await runOnce()).status).toBe('succeeded');
    expect(docsTab.rows.length - 1).toBe(2);
  });
});
