import { describe, expect, test } from 'vitest';
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

const app = setupApp();

/** Width of the desktop sidebar in CSS pixels. */
async function sidebarWidth(page: Page): Promise<number> {
  const box = await page.locator('aside').boundingBox();
  if (!box) throw new Error('the sidebar is not visible');
  return Math.round(box.width);
}

/** Opens a fresh page as a new, onboarded user (on the home page). */
async function openApp(name = 'Asha Verma'): Promise<Page> {
  const page = await app.newPage();
  await createUser(page, { name, emailPrefix: 'shell' });
  return page;
}

describe('app shell', () => {
  test('the sidebar collapses to 4rem and expands to 18rem, and remembers it', async () => {
    const page = await openApp();
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.waitFor();
    expect(await sidebarWidth(page)).toBe(288);
    await screenshot(page, 'shell-sidebar-expanded');

    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    // The width animates; poll until it settles.
    await expect.poll(() => sidebarWidth(page)).toBe(64);
    // Labels are visually hidden but still name the links for assistive technology.
    expect(await page.getByRole('link', { name: 'Profile' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'shell-sidebar-collapsed');
    await page.reload();
    await page.getByTestId('org-name').waitFor();
    await expect.poll(() => sidebarWidth(page)).toBe(64);

    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(288);
  });

  test('modules that are not available are marked "Soon" and ignore clicks (Working Capital); GST & TDS and MSME are live', async () => {
    const page = await openApp();
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.waitFor();
    for (const label of ['Working Capital']) {
      const item = main.getByRole('listitem').filter({ hasText: label });
      // Rendered upper-case by CSS, so compare case-insensitively.
      await expectText(item.getByText('Soon', { exact: true }), /^soon$/i);
    }
    await expectCount(main.getByText('Soon', { exact: true }), 1);
    for (const label of ['Home', 'Parse', 'Vendor Management', 'GST & TDS', 'MSME']) {
      await expectCount(main.getByRole('listitem').filter({ hasText: label }).getByText('Soon'), 0);
    }

    const before = page.url();
    for (const label of ['Working Capital']) {
      const item = main.getByRole('button', { name: label });
      expect(await item.getAttribute('aria-disabled')).toBe('true');
      // force: a person can still click it; the app must do nothing.
      await item.click({ force: true });
      await page.waitForTimeout(300);
      expect(page.url()).toBe(before);
    }
    await main.getByRole('link', { name: 'GST & TDS' }).click();
    await page.getByRole('heading', { name: 'GST & TDS', level: 1 }).waitFor();
    await main.getByRole('link', { name: 'MSME' }).click();
    await page.getByRole('heading', { name: 'MSME', level: 1 }).waitFor();
  });

  test('home greets the user by first name and every counter starts at 0', async () => {
    const page = await openApp('Meenakshi Sundaram');
    await page.getByRole('heading', { name: /^Good (morning|afternoon|evening), Meenakshi$/ }).waitFor();
    const card = (label: string) => page.locator('[data-slot="card"]').filter({ hasText: label }).first();
    await expectText(card('Active Flows').locator('p').first(), '0');
    await expectText(card('Vendors Onboarded').locator('p').first(), '0');
    await expectText(card('Documents Processed').locator('p').first(), '0');
    await expectText(card('Cost Savings').locator('p').first(), '₹0');
    await screenshot(page, 'shell-home-zero');

    const dashboard = await getApiJson<{ stats: Record<string, number> }>(page, '/api/dashboard');
    expect(dashboard.body.stats).toMatchObject({
      activeFlows: 0,
      vendorsOnboarded: 0,
      documentsProcessed: 0,
      costSavingsInr: 0,
    });
  });

  test('the notification bell shows no count when nothing is unread', async () => {
    const page = await openApp();
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.waitFor();
    const initial = await getApiJson<{ unreadCount: number }>(page, '/api/notifications');
    if (initial.body.unreadCount > 0) {
      // A welcome notification (if the server sends one) shows as a count; read it to reach zero.
      await expectText(page.getByTestId('notification-count'), String(initial.body.unreadCount));
      const read = await page.context().request.post('/api/notifications/read', {
        data: {},
        headers: { origin: app.url },
      });
      expect(((await read.json()) as { unreadCount: number }).unreadCount).toBe(0);
      await page.reload();
      await bell.waitFor();
    }
    await expectCount(page.getByTestId('notification-count'), 0);
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');
    await bell.click();
    await page.getByText(initial.body.unreadCount > 0 ? 'Mark all read' : "You're all caught up").waitFor();
    await screenshot(page, 'shell-notifications-open');
  });

  test('"Get Notified" on a coming-soon module records interest that survives a reload', async () => {
    const page = await openApp();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Vendor Management' })
      .click();
    await waitForPath(page, '/vendor-management');
    await page.getByRole('button', { name: 'Get Notified' }).click();
    await page.getByRole('button', { name: "You're on the list" }).waitFor();
    await screenshot(page, 'shell-get-notified');

    await page.reload();
    await page.getByRole('button', { name: "You're on the list" }).waitFor();
    await expectCount(page.getByRole('button', { name: 'Get Notified' }), 0);
    const interest = await getApiJson<{ modules: string[] }>(page, '/api/interest');
    expect(interest.body.modules).toEqual(['vendor-management']);

    // Other modules are independent.
    await page.goto('/compliance');
    await page.getByRole('button', { name: 'Get Notified' }).waitFor();
  });
});

describe('error page', () => {
  test('a page that throws shows "Unexpected Application Error!"', async () => {
    const page = await app.newPage({ allowPageErrors: true, localStorage: { bahiErrorTest: '1' } });
    await page.goto('/__error-test');
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await page.getByRole('link', { name: 'Go home' }).waitFor();
    await screenshot(page, 'shell-error-page');
  });

  test('without the opt-in the error-test route does not exist', async () => {
    const page = await app.newPage();
    await page.goto('/__error-test');
    await waitForPath(page, '/signup');
  });
});
