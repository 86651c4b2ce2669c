import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AxeFinding, auditAccessibility } from './support/axe.ts';
import {
  completeOnboarding,
  expectCount,
  makeEmail,
  type Page,
  setupApp,
  signUp,
  waitForPath,
} from './support/harness.ts';

// Every screen and open menu of the app, at desktop and phone width, through axe-core in the real
// browser: no serious or critical violation may remain. Screenshots of each are kept for a person to
// look at (test-results/screenshots/a11y-*).

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** One axe finding, shaped to read well in a failed assertion. */
type Finding = AxeFinding;

/**
 * Runs axe-core on what the page shows now and returns the serious and critical findings (the shared
 * helper; axe is evaluated through the DevTools protocol, which the app's CSP does not see).
 */
async function auditPage(page: Page, screen: string): Promise<Finding[]> {
  const found = await auditAccessibility(page, `a11y-${screen}`);
  return found.map((f) => ({ ...f, screen }));
}

/** Creates an upload flow with one invoice in its inbox and a finished run, through the API. */
async function createFlowWithRun(page: Page): Promise<string> {
  const flow = (await page.evaluate(async () => {
    const res = await fetch('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Vendor invoices',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: 'Invoices' },
        },
      }),
    });
    return res.json();
  })) as { id: string };
  const pdf = (await readFile(join(fixtures, 'invoice-003.pdf'))).toString('base64');
  await page.evaluate(
    async ({ id, pdf }) => {
      const form = new FormData();
      const bytes = Uint8Array.from(atob(pdf), (c) => c.charCodeAt(0));
      form.append('files', new Blob([bytes], { type: 'application/pdf' }), 'invoice-003.pdf');
      await fetch(`/api/flows/${id}/uploads`, { method: 'POST', body: form });
      const run = (await (await fetch(`/api/flows/${id}/runs`, { method: 'POST' })).json()) as { id: string };
      for (let i = 0; i < 240; i++) {
        const state = (await (await fetch(`/api/runs/${run.id}`)).json()) as { status: string };
        if (state.status === 'succeeded' || state.status === 'failed') return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    { id: flow.id, pdf },
  );
  return flow.id;
}

describe('accessibility of every screen (axe-core)', () => {
  const app = setupApp();

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`has no serious or critical violation on any screen at ${width} width`, async () => {
      const findings: Finding[] = [];
      const audit = async (page: Page, screen: string) => {
        findings.push(...(await auditPage(page, `${width}-${screen}`)));
      };

      // Signed out.
      const guest = await app.newPage({ viewport });
      for (const [path, screen] of [
        ['/login', 'sign-in'],
        ['/signup', 'sign-up'],
        ['/terms-and-conditions', 'terms'],
        ['/privacy-policy', 'privacy'],
      ] as const) {
        await guest.goto(path);
        await guest.getByRole('heading', { level: 1 }).first().waitFor();
        await audit(guest, screen);
      }

      // Onboarding, then the signed-in app.
      const user = await app.newPage({ viewport });
      await signUp(user, {
        name: 'Asha Verma',
        email: makeEmail(`a11y-${width}`),
        password: 'correct-horse-42',
      });
      await waitForPath(user, '/onboarding');
      await user.getByRole('button', { name: 'Continue' }).waitFor();
      await audit(user, 'onboarding');
      await completeOnboarding(user);

      await user.goto('/');
      await user.getByText('Recent Activity').waitFor();
      await audit(user, 'home');
      await user.getByRole('button', { name: 'View All Activity' }).click();
      await user.getByRole('dialog', { name: 'All activity' }).waitFor();
      await audit(user, 'home-all-activity');
      await user.keyboard.press('Escape');

      await user.getByRole('button', { name: /notifications/i }).click();
      await user.getByRole('dialog', { name: 'Notifications' }).waitFor();
      await audit(user, 'notifications-menu');
      await user.keyboard.press('Escape');

      await user.goto('/parse');
      await user.getByText('No processing flows yet').waitFor();
      await audit(user, 'parse-empty');
      await user.getByRole('button', { name: 'Create First Flow' }).click();
      await user.getByRole('dialog', { name: 'Create New Flow' }).waitFor();
      await audit(user, 'create-flow');
      await user.keyboard.press('Escape');

      const flowId = await createFlowWithRun(user);
      await user.goto('/parse');
      const card = user.locator(`[data-flow-id="${flowId}"]`);
      await card.waitFor();
      await card.getByRole('button', { name: /Run history/ }).click();
      await user.getByRole('table', { name: 'Run history' }).waitFor();
      await audit(user, 'parse-flows');
      await card.getByRole('button', { name: 'Documents' }).click();
      await user.getByRole('dialog', { name: 'Vendor invoices — documents' }).waitFor();
      await expectCount(user.getByTestId('inbox-document'), 1);
      await audit(user, 'documents-panel');
      await user.keyboard.press('Escape');

      await user.goto(`/flows/${flowId}/sheet`);
      await user.getByRole('tab', { name: /Documents/ }).waitFor();
      await audit(user, 'sheet-view');

      // The review screen of the document, with a field's box drawn on its page.
      const docs = (await user.evaluate(
        async (id) =>
          (await (await fetch(`/api/flows/${id}/documents`)).json()) as { items: Array<{ id: string }> },
        flowId,
      )) as { items: Array<{ id: string }> };
      await user.goto(`/flows/${flowId}/documents/${docs.items[0]!.id}`);
      await user.getByRole('img', { name: /Page 1 of the document/ }).waitFor();
      await user.getByLabel('Total', { exact: true }).focus();
      await user.getByTestId('field-box').waitFor();
      await audit(user, 'document-review');

      for (const [path, screen] of [
        ['/review?view=all', 'review-queue'],
        ['/reconcile', 'reconcile'],
        ['/profile', 'profile'],
        ['/integrations', 'integrations'],
        ['/vendor-management', 'vendor-management'],
        ['/compliance', 'compliance'],
        ['/gst', 'gst-and-tds'],
        ['/team', 'team'],
        ['/audit', 'audit-trail'],
        ['/working-capital', 'working-capital'],
      ] as const) {
        await user.goto(path);
        await user.getByRole('heading', { level: 1 }).first().waitFor();
        await audit(user, screen);
      }

      // The menus that live in the top bar and, on phones, the navigation drawer.
      await user.goto('/');
      await user.getByText('Recent Activity').waitFor();
      await user.getByRole('button', { name: /Account menu/ }).click();
      await user.getByRole('menu').waitFor();
      await audit(user, 'user-menu');
      await user.keyboard.press('Escape');
      if (width === 'phone') {
        await user.getByRole('button', { name: 'Open navigation' }).click();
        await user.getByRole('dialog', { name: 'Navigation' }).waitFor();
        await audit(user, 'navigation-drawer');
        await user.keyboard.press('Escape');
      }

      expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
    });
  }
});
