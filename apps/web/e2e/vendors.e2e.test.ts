import { computeGstinCheckChar } from '@bahi/india';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  chooseOption,
  createUser,
  expectText,
  makeEmail,
  type Page,
  screenshot,
  setupApp,
  waitForPath,
} from './support/harness.ts';

// Vendor onboarding end to end, with made-up vendors: the owner makes a link from Home, the vendor fills
// the form on a phone-sized screen (a bad PAN, a GSTIN of another PAN and an unknown IFSC are each refused
// in words), the owner approves and sees the vendor onboarded; a later bank change waits for a second
// person (an approver who joins by invitation); an expired link shows its plain page.

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PAN = 'AAKCK1234F';
const gstinOf = (pan: string) => `27${pan}1Z${computeGstinCheckChar(`27${pan}1Z`)}`;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(300, 9),
]);

/** From Vendor Management (or Home's quick action), a link for a vendor, read from the dialog. */
async function makeLink(page: Page, vendorName: string, pan = ''): Promise<string> {
  await page.getByRole('button', { name: 'Create onboarding link' }).click();
  await page.getByLabel('Who is it for?').fill(vendorName);
  if (pan) await page.getByLabel('PAN, if you know it').fill(pan);
  await page.getByRole('button', { name: 'Create link' }).click();
  const field = page.getByLabel(`Link for ${vendorName} (shown once)`);
  await expect.poll(() => field.inputValue().catch(() => '')).toMatch(/\/vendor-form\/[A-Za-z0-9_-]{43}$/);
  const url = await field.inputValue();
  // No outgoing mail on this server: the dialog says to copy the link, and offers no sending.
  await expectText(page.getByTestId('no-mail-note'), /no outgoing mail set up, so copy the link/);
  expect(await page.getByRole('button', { name: 'Send by e-mail' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Done' }).click();
  return new URL(url).pathname;
}

/** The vendor fills every box with good values (the PAN only when the link did not lock it). */
async function fillGoodForm(
  page: Page,
  { account, panLocked = false }: { account: string; panLocked?: boolean },
) {
  await page.getByLabel('Legal name (as on the PAN)').fill('Kavya Fasteners Private Limited');
  await page.getByLabel('Constitution').selectOption('private_limited');
  if (!panLocked) await page.getByLabel(/^PAN\*?$/).fill(PAN);
  await page.getByLabel('GSTIN', { exact: true }).fill(gstinOf(PAN));
  await page.getByLabel('We are registered under Udyam').check();
  await page.getByLabel('Udyam number').fill('UDYAM-MH-26-0012345');
  await page.getByLabel('Category').selectOption('micro');
  await page.getByLabel('Activity').selectOption('manufacturing');
  await page.getByLabel("Account holder's name").fill('Kavya Fasteners Private Limited');
  await page.getByLabel(/^Account number\*?$/).fill(account);
  await page.getByLabel('Account number again').fill(account);
  await page.getByLabel('IFSC').fill('HDFC0000001');
  await page.getByLabel(/^Name\*?$/).fill('Ravi Kumar');
  await page.getByLabel('Phone').fill('9876543210');
  await page
    .getByLabel('Cancelled cheque')
    .setInputFiles({ name: 'cheque.png', mimeType: 'image/png', buffer: PNG });
  await expectText(page.getByText('Attached: cheque.png'), 'Attached: cheque.png');
}

const send = (page: Page) => page.getByRole('button', { name: /^Send to / }).click();

/** An approver joins by an invitation link made on the Team screen. */
async function joinAsApprover(owner: Page, approver: Page): Promise<void> {
  await owner.goto('/team');
  await chooseOption(owner, 'Role of the person invited', 'Approver');
  await owner.getByRole('button', { name: 'Make invitation link' }).click();
  const link = owner.getByLabel('Invitation link');
  await expect.poll(() => link.inputValue().catch(() => '')).toMatch(/\/invite\//);
  const path = new URL(await link.inputValue()).pathname;
  await approver.goto(path);
  await approver.getByRole('link', { name: 'Create an account' }).click();
  await waitForPath(approver, '/signup');
  await approver.getByLabel('Full name', { exact: true }).fill('Chitra Approver');
  await approver.getByLabel('Email', { exact: true }).fill(makeEmail('chitra'));
  await approver.getByLabel('Password', { exact: true }).fill('correct-horse-42');
  await approver.getByRole('button', { name: 'Create account' }).click();
  await waitForPath(approver, path);
  await approver.getByRole('button', { name: /^Join / }).click();
  await waitForPath(approver, '/');
}

describe('vendor onboarding', () => {
  const app = setupApp();

  it('takes a vendor from a link to an active vendor; a bank change waits for a second person', async () => {
    const owner = await app.newPage({ viewport: DESKTOP });
    await createUser(owner, { name: 'Meera Owner', emailPrefix: 'owner' });
    // Straight from onboarding (no reload): Home's quick action opens the link dialog itself. The role
    // must already be known in the browser, or the dialog never opens and ?link=1 stays in the address.
    await owner.getByRole('link', { name: /^Generate Vendor Form/ }).click();
    await owner.getByRole('dialog', { name: 'Vendor onboarding link' }).waitFor({ timeout: 10_000 });
    await expect.poll(() => new URL(owner.url()).search).toBe('');
    await owner.keyboard.press('Escape');
    const path = await makeLink(owner, 'Kavya Fasteners');

    const vendor = await app.newPage({ viewport: PHONE });
    await vendor.goto(path);
    await vendor.getByRole('heading', { name: /Vendor details for/ }).waitFor();
    await fillGoodForm(vendor, { account: '50100012345678' });
    // A PAN whose 4th character names no holder type.
    await vendor.getByLabel(/^PAN\*?$/).fill('AAKQK1234F');
    await send(vendor);
    await expectText(vendor.locator('#pan-message'), /4th character of a PAN says who holds it/);
    await vendor.getByLabel(/^PAN\*?$/).fill(PAN);
    // A GSTIN that belongs to another PAN.
    await vendor.getByLabel('GSTIN', { exact: true }).fill(gstinOf('AAKCM9999Z'));
    await send(vendor);
    await expectText(vendor.locator('#gstin-0-message'), /belongs to PAN AAKCM9999Z, not AAKCK1234F/);
    await vendor.getByLabel('GSTIN', { exact: true }).fill(gstinOf(PAN));
    // An IFSC of the right shape that no bank has: the server's bank and branch list refuses it.
    await vendor.getByLabel('IFSC').fill('ZZZZ0000001');
    await send(vendor);
    await expectText(
      vendor.locator('#ifsc-message'),
      'No bank has the code ZZZZ: check the IFSC on the cheque',
    );
    await screenshot(vendor, 'vendors-01-form-phone-errors', { fullPage: true });
    const width = await vendor.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await vendor.getByLabel('IFSC').fill('HDFC0000001');
    await send(vendor);
    await vendor.getByRole('heading', { name: 'Thank you' }).waitFor();

    // Finance approves; the vendor is onboarded in the master.
    await owner.goto('/vendor-management');
    const card = owner.getByTestId('vendor-submission');
    await expectText(card.getByRole('heading'), 'Kavya Fasteners Private Limited');
    await screenshot(owner, 'vendors-02-review', { fullPage: true });
    await card.getByRole('button', { name: 'Approve' }).click();
    await expectText(
      owner.getByText('Kavya Fasteners Private Limited is now an active vendor'),
      /active vendor/,
    );
    const row = owner.getByTestId('vendor-row').filter({ hasText: gstinOf(PAN) });
    await expectText(row.getByText('Onboarded'), 'Onboarded');

    // A later link: the vendor sends a new bank account; approving it needs a second person.
    const second = await makeLink(owner, 'Kavya Fasteners', PAN);
    await vendor.goto(second);
    await vendor.getByRole('heading', { name: /Vendor details for/ }).waitFor();
    await fillGoodForm(vendor, { account: '99998888777766', panLocked: true });
    await send(vendor);
    await vendor.getByRole('heading', { name: 'Thank you' }).waitFor();
    await owner.reload();
    const changed = owner.getByTestId('vendor-submission');
    await expectText(changed.getByText('Bank account changes'), 'Bank account changes');
    await expectText(changed.getByRole('list', { name: 'Differences' }), /Bank account/);
    await changed.getByRole('button', { name: 'Approve' }).click();
    const pending = owner.getByTestId('bank-change');
    await expectText(pending.getByText(/on hold/), /on hold until someone else approves/);
    await expectText(row.getByText(/invoices on hold/), 'Bank change: invoices on hold');
    await pending.getByRole('button', { name: 'Approve new account' }).click();
    await expectText(owner.getByText(/someone else must approve the change/), /someone else must approve/);

    const approver = await app.newPage({ viewport: DESKTOP });
    await joinAsApprover(owner, approver);
    await approver.goto('/vendor-management');
    await approver.getByTestId('bank-change').getByRole('button', { name: 'Approve new account' }).click();
    await expectText(approver.getByText(/its invoices are released/), /released/);
    await owner.goto('/vendor-management');
    await expectText(
      owner
        .getByTestId('vendor-row')
        .filter({ hasText: gstinOf(PAN) })
        .getByText('Onboarded'),
      'Onboarded',
    );
    expect(await owner.getByTestId('bank-change').count()).toBe(0);
  }, 240_000);

  it('shows a plain page for an expired link, saying nothing of the vendor', async () => {
    const owner = await app.newPage({ viewport: DESKTOP });
    await createUser(owner, { name: 'Meera Owner', emailPrefix: 'owner2' });
    await owner.goto('/vendor-management');
    const path = await makeLink(owner, 'Lapsed Supplies', 'AAPCL7777Q');
    await app.server.db.execute(sql`update vendor_links set expires_at = now() - interval '1 day'`);
    const vendor = await app.newPage({ viewport: PHONE });
    await vendor.goto(path);
    await vendor.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    const text = await vendor.locator('main').innerText();
    expect(text).not.toContain('AAPCL7777Q');
    expect(text).not.toContain('Lapsed');
    await screenshot(vendor, 'vendors-03-expired-phone');
  });
});
