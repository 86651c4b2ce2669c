import { computeGstinCheckChar } from '@bahi/india';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type LoopbackSmtp, startLoopbackSmtp } from '../../server/src/test/smtp.ts';
import { createUser, expectText, screenshot, setupApp } from './support/harness.ts';

// An onboarding link for a vendor already in the master, made from its row (name, PAN and GSTIN filled in
// and locked) and sent by e-mail through a real SMTP server on loopback; the vendor opens the link from
// the message and finds those fields locked. Made-up vendors and addresses.

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PAN = 'AAKCR4321M';
const first14 = `29${PAN}1Z`;
const GSTIN = first14 + computeGstinCheckChar(first14);

let smtp: LoopbackSmtp | undefined;

describe('onboarding link for a known vendor, by e-mail', () => {
  const app = setupApp(async () => {
    smtp = await startLoopbackSmtp();
    return { env: smtp.envVars };
  });
  afterAll(() => smtp?.close());

  it('makes a locked link from the vendor’s row and mails it; the vendor finds the fields locked', async () => {
    const owner = await app.newPage({ viewport: DESKTOP });
    await createUser(owner, { name: 'Meera Owner', emailPrefix: 'mail-owner' });
    const [org] = (
      (await app.server.db.execute(
        sql`select id from organizations order by created_at desc limit 1`,
      )) as unknown as {
        rows: Array<{ id: string }>;
      }
    ).rows;
    await app.server.db.execute(
      sql`insert into vendors (organization_id, gstin, name, pan) values (${org!.id}, ${GSTIN}, 'Rangoli Castings', ${PAN})`,
    );
    await owner.goto('/vendor-management');
    const row = owner.getByTestId('vendor-row').filter({ hasText: GSTIN });
    await row.getByRole('button', { name: 'Send onboarding link to Rangoli Castings' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Vendor onboarding link' });
    const locked = dialog.getByTestId('link-locked-fields');
    await expectText(locked, /PAN\s+AAKCR4321M/);
    await expectText(locked, new RegExp(`GSTIN\\s+${GSTIN}`));
    expect(await dialog.getByLabel('Who is it for?').inputValue()).toBe('Rangoli Castings');
    await screenshot(owner, 'vendor-links-01-known-vendor');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const field = dialog.getByLabel('Link for Rangoli Castings (shown once)');
    await expect.poll(() => field.inputValue().catch(() => '')).toMatch(/\/vendor-form\/[A-Za-z0-9_-]{43}$/);
    const url = await field.inputValue();

    // A line break in the address is refused in words; one plain address is sent.
    await dialog.getByLabel("Vendor's e-mail address").fill('accounts@rangoli.example.in, boss@x.in');
    await dialog.getByRole('button', { name: 'Send by e-mail' }).click();
    await expectText(dialog.locator('#vendor-link-mail-message'), /one e-mail address/);
    await dialog.getByLabel("Vendor's e-mail address").fill('accounts@rangoli.example.in');
    await dialog.getByRole('button', { name: 'Send by e-mail' }).click();
    await expectText(dialog.getByRole('status'), /Sent to accounts@rangoli\.example\.in/);
    await screenshot(owner, 'vendor-links-02-sent');
    await expect.poll(() => smtp!.received.length, { timeout: 20_000 }).toBe(1);
    const mail = smtp!.received[0]!;
    expect(mail.to).toEqual(['accounts@rangoli.example.in']);
    expect(mail.parsed.subject).toMatch(/please fill in your vendor details$/);
    expect(mail.parsed.text).toContain(url);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await owner.reload();
    await expectText(
      owner.getByTestId('vendor-link').filter({ hasText: 'Rangoli Castings' }),
      /E-mailed to accounts@rangoli\.example\.in/,
    );

    // The vendor follows the link in the message: PAN and GSTIN are there and cannot be changed.
    const linkInMail = /https?:\/\/\S+\/vendor-form\/[A-Za-z0-9_-]+/.exec(String(mail.parsed.text))![0];
    const vendor = await app.newPage({ viewport: PHONE });
    await vendor.goto(new URL(linkInMail).pathname);
    await vendor.getByRole('heading', { name: /Vendor details for/ }).waitFor();
    const pan = vendor.getByLabel(/^PAN\*?$/);
    expect(await pan.inputValue()).toBe(PAN);
    expect((await pan.isEditable()) === false || (await pan.getAttribute('readonly')) !== null).toBe(true);
    await screenshot(vendor, 'vendor-links-03-locked-phone', { fullPage: true });
  });

  it('opens from Home on a phone and offers copying when the link is made', async () => {
    const owner = await app.newPage({ viewport: PHONE });
    await createUser(owner, { name: 'Phone Owner', emailPrefix: 'phone-owner' });
    await owner.getByRole('link', { name: /^Generate Vendor Form/ }).click();
    const dialog = owner.getByRole('dialog', { name: 'Vendor onboarding link' });
    await dialog.getByLabel('Who is it for?').fill('Neel Packaging');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.getByRole('button', { name: 'Send by e-mail' }).waitFor();
    await dialog.getByRole('button', { name: 'Copy link' }).waitFor();
    await screenshot(owner, 'vendor-links-04-dialog-phone');
    const width = await owner.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
  });
});
