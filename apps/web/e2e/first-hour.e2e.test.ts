import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createUser,
  expectCount,
  expectText,
  getApiJson,
  type Page,
  screenshot,
  setupApp,
  waitForPath,
} from './support/harness.ts';

// A new user's first hour, as the product's specification words it: the texts on each screen, a run
// that stays visible when the user wanders off and comes back, and changes that are never dropped
// without a word.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Creates an upload flow holding `copies` invoices (distinct names, so each is its own document). */
async function createFlowWithInvoices(page: Page, name: string, copies: number): Promise<string> {
  const pdf = (await readFile(join(fixtures, 'invoice-018.pdf'))).toString('base64');
  return page.evaluate(
    async ({ name, pdf, copies }) => {
      const created = await fetch('/api/workflows', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          types: ['INVOICE'],
          io: {
            input: { kind: 'upload', url: '', folderName: '' },
            output: { kind: 'xlsx', sheetId: '', sheetName: name },
          },
        }),
      });
      const flow = (await created.json()) as { id: string };
      const bytes = Uint8Array.from(atob(pdf), (c) => c.charCodeAt(0));
      const form = new FormData();
      for (let i = 1; i <= copies; i++)
        form.append(
          'files',
          new Blob([bytes], { type: 'application/pdf' }),
          `invoice-${String(i).padStart(2, '0')}.pdf`,
        );
      await fetch(`/api/flows/${flow.id}/uploads`, { method: 'POST', body: form });
      return flow.id;
    },
    { name, pdf, copies },
  );
}

describe("a new user's first hour", () => {
  // One extraction at a time, so a run of many documents lasts long enough to walk away from.
  const app = setupApp({ env: { EXTRACT_CONCURRENCY: '1' } });

  it('says what the specification says on the sign-in panel, top bar, home and profile', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await page.getByText('A finance co-pilot in beta', { exact: false }).first().waitFor();
    const user = await createUser(page, { name: 'Asha Verma', emailPrefix: 'first-hour' });

    await expectText(page.locator('header'), /Streamline your operations with AI/);
    const analytics = page.getByTestId('analytics-features');
    for (const label of ['Real-time Reports', 'Cost Analysis', 'Performance Metrics', 'Compliance Tracking'])
      await analytics.getByText(label, { exact: true }).waitFor();
    // Every quick action is live: the vendor form leads to vendor onboarding.
    for (const label of ['Create Parse Flow', 'Generate Vendor Form', 'View Reports'])
      await page.getByRole('link', { name: new RegExp(`^${label}`) }).waitFor();
    expect(await page.getByTestId('quick-action-unavailable').count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Generate Vendor Form/ }).getAttribute('href')).toBe(
      '/vendor-management?link=1',
    );

    // The whole history, a page at a time.
    await page.getByRole('button', { name: 'View All Activity' }).click();
    const history = page.getByRole('dialog', { name: 'All activity' });
    await expectText(history.getByTestId('activity-history'), /set up Acme Traders/);
    await screenshot(page, 'first-hour-all-activity');
    await page.keyboard.press('Escape');

    // "Create Parse Flow" opens the create sheet itself.
    await page.getByRole('link', { name: /^Create Parse Flow/ }).click();
    await page.getByRole('dialog', { name: 'Create New Flow' }).waitFor();
    await page.keyboard.press('Escape');

    // Profile summary: initials, name, e-mail, organisation, type, GSTIN count.
    await page.goto('/profile');
    await expectText(page.getByTestId('summary-initials'), 'AV');
    await expectText(page.getByTestId('summary-user-name'), 'Asha Verma');
    await expectText(page.getByTestId('summary-email'), user.email);
    await expectText(page.getByTestId('summary-org-name'), 'Acme Traders Private Limited');
    await expectText(page.getByTestId('summary-org-type'), 'Private Limited');
    await expectText(page.getByTestId('summary-gstin-count'), '0');

    // Legal pages: Back goes to the start of the app.
    await page.goto('/terms-and-conditions');
    await page.getByRole('link', { name: 'Back' }).click();
    await waitForPath(page, '/');
  });

  it('offers to sign in when signing up with an address that has an account', async () => {
    const first = await app.newPage();
    const user = await createUser(first, { emailPrefix: 'taken' });
    const page = await app.newPage();
    await page.goto('/signup');
    await page.getByLabel('Full name').fill('Someone Else');
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('another long passphrase 7');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectText(page.getByRole('alert'), /An account with this e-mail already exists\./);
    await screenshot(page, 'first-hour-signup-existing');
    await page.getByRole('link', { name: 'Sign in instead' }).click();
    await waitForPath(page, '/login');
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
  });

  it('shows a run in progress after leaving the page and coming back', async () => {
    const page = await app.newPage();
    await createUser(page, { emailPrefix: 'run-away' });
    const flowId = await createFlowWithInvoices(page, 'Long batch', 24);
    await page.goto('/parse');
    const card = page.locator(`[data-flow-id="${flowId}"]`);
    await card.getByTestId('run-flow').click();
    await expectText(card.getByTestId('run-flow'), 'Running');

    // Away to the profile and back while the run goes on.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await waitForPath(page, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Parse' }).click();
    await waitForPath(page, '/parse');
    const runs = await getApiJson<{ items: Array<{ status: string }> }>(page, `/api/flows/${flowId}/runs`);
    expect(runs.body.items[0]?.status).toMatch(/queued|running/);
    await expectText(card.getByTestId('run-flow'), 'Running');
    expect(await card.getByTestId('run-flow').isDisabled()).toBe(true);
    await card.locator('[data-testid="run-progress"][data-state="running"]').waitFor();
    await screenshot(page, 'first-hour-run-after-coming-back');
    // And it ends as any run does.
    await expectText(card.getByTestId('run-flow'), 'Run', 120_000);
  });

  it('asks before dropping unsaved changes on the profile and in the flow form', async () => {
    const page = await app.newPage();
    await createUser(page, { emailPrefix: 'unsaved' });
    await page.goto('/profile');
    await page.getByText('GSTIN management', { exact: true }).waitFor();
    await page.getByLabel('GSTIN', { exact: true }).pressSequentially('29ABCDE1234F1ZW');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectCount(page.getByTestId('gstin-list').locator('li'), 1);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Parse' }).click();
    const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
    await ask.waitFor();
    await screenshot(page, 'first-hour-unsaved-profile');
    await ask.getByRole('button', { name: 'Stay and keep editing' }).click();
    await waitForPath(page, '/profile');
    await expectCount(page.getByTestId('gstin-list').locator('li'), 1);
    await nav.getByRole('link', { name: 'Parse' }).click();
    await ask.getByRole('button', { name: 'Leave without saving' }).click();
    await waitForPath(page, '/parse');

    // The flow form: closing it with a name typed asks too.
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.getByLabel('Flow name').fill('Half-made flow');
    await page.keyboard.press('Escape');
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Stay and keep editing' }).click();
    expect(await form.getByLabel('Flow name').inputValue()).toBe('Half-made flow');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await ask.getByRole('button', { name: 'Leave without saving' }).click();
    await form.waitFor({ state: 'hidden' });
    // Untouched, the form closes without a question.
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    await form.waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    await expectCount(ask, 0);
  });
});
