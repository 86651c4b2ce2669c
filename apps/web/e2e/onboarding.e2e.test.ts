import { describe, expect, test } from 'vitest';
import {
  expectCount,
  expectText,
  fillOnboarding,
  makeEmail,
  type Page,
  screenshot,
  setupApp,
  signUp,
  waitForPath,
} from './support/harness.ts';

const app = setupApp();

const messages = {
  orgName: 'Organization name is required',
  phone: 'Contact phone is required',
  phoneInvalid: 'Please enter a valid phone number',
  orgType: 'Organization type is required',
  address: 'Business address is required',
};

/** Signs up a fresh user, who lands on /onboarding. */
async function startOnboarding(page: Page, name = 'Priya Nair'): Promise<void> {
  await signUp(page, { name, email: makeEmail('onboard'), password: 'correct-horse-42' });
  await waitForPath(page, '/onboarding');
  await page.getByRole('button', { name: 'Continue' }).waitFor();
}

/** The message shown under a field, found through the control's aria-describedby (as a screen reader would). */
async function fieldMessage(page: Page, label: string): Promise<string | null> {
  const control = page.getByLabel(label);
  const describedBy = await control.getAttribute('aria-describedby');
  if (!describedBy) return null;
  const text = await page.locator(`[id="${describedBy}"]`).textContent();
  return (text ?? '').trim();
}

describe('onboarding', () => {
  test('an empty form shows every required-field message, each tied to its field; the type starts as Pvt Ltd', async () => {
    const page = await app.newPage();
    await startOnboarding(page);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByText(messages.orgName, { exact: true }).waitFor();
    expect(await fieldMessage(page, 'Organization name')).toBe(messages.orgName);
    expect(await fieldMessage(page, 'Contact phone')).toBe(messages.phone);
    // The organisation type starts as Private Limited, so it needs no message.
    expect(await fieldMessage(page, 'Organization type')).toBeNull();
    await expectText(page.getByLabel('Organization type'), /Private Limited/);
    expect(await fieldMessage(page, 'Business address')).toBe(messages.address);
    expect(await page.getByLabel('Organization name').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'onboarding-all-required');
    // Nothing was created and the guard keeps the user here.
    expect(new URL(page.url()).pathname).toBe('/onboarding');
  });

  test('an invalid phone number is refused, and each message clears when its field is edited', async () => {
    const page = await app.newPage();
    await startOnboarding(page);
    await fillOnboarding(page, { phone: '12345' });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(messages.phoneInvalid, { exact: true }).waitFor();
    expect(await fieldMessage(page, 'Contact phone')).toBe(messages.phoneInvalid);
    await screenshot(page, 'onboarding-invalid-phone');

    // Editing one field clears only that field's message.
    await page.getByLabel('Organization name').fill('N');
    await expectCount(page.getByText(messages.orgName, { exact: true }), 0);
    expect(await fieldMessage(page, 'Contact phone')).toBe(messages.phoneInvalid);
    expect(await fieldMessage(page, 'Business address')).toBe(messages.address);

    await page.getByLabel('Contact phone').fill('123456');
    await expectCount(page.getByText(messages.phoneInvalid, { exact: true }), 0);
    await page.getByLabel('Business address').fill('1');
    await expectCount(page.getByText(messages.address, { exact: true }), 0);
    await fillOnboarding(page, { orgTypeLabel: 'Others' });
    await expectCount(page.getByText(messages.orgType, { exact: true }), 0);
  });

  test('a valid form creates the organisation and opens home with its name in the top bar', async () => {
    const page = await app.newPage();
    await startOnboarding(page, 'Priya Nair');
    await page.getByText('Set up your organisation, Priya').waitFor();
    await fillOnboarding(page, {
      orgName: 'Nair Exports LLP',
      phone: '98450 12345',
      orgTypeLabel: 'Limited Liability Partnership',
      address: '4th Floor, Marine Drive, Kochi, Kerala 682031',
    });
    await screenshot(page, 'onboarding-filled');
    await page.getByRole('button', { name: 'Continue' }).click();
    await waitForPath(page, '/');
    await expectText(page.getByTestId('org-name'), 'Nair Exports LLP');
    await screenshot(page, 'onboarding-done-home');

    const org = await page.context().request.get('/api/organization');
    expect(org.status()).toBe(200);
    expect(await org.json()).toMatchObject({
      legalName: 'Nair Exports LLP',
      orgType: 'llp',
      address: '4th Floor, Marine Drive, Kochi, Kerala 682031',
      gstins: [],
    });
    // Onboarding is done: the page is no longer reachable, and creating a second organisation is refused.
    await page.goto('/onboarding');
    await waitForPath(page, '/');
    const again = await page.context().request.post('/api/organization', {
      data: { orgName: 'Second', phone: '9845012345', orgType: 'pvt_ltd', address: 'x' },
      headers: { origin: app.url },
    });
    expect(again.status()).toBe(409);
  });

  test('the server applies the same messages to a raw request', async () => {
    const page = await app.newPage();
    await startOnboarding(page);
    const response = await page.context().request.post('/api/organization', {
      data: { orgName: ' ', phone: 'abc', orgType: '', address: '' },
      headers: { origin: app.url },
    });
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { error: { fields?: Record<string, string> } };
    expect(body.error.fields).toEqual({
      orgName: messages.orgName,
      phone: messages.phoneInvalid,
      orgType: messages.orgType,
      address: messages.address,
    });
  });
});
