import { describe, expect, test } from 'vitest';
import {
  createUser,
  expectCount,
  expectText,
  getApiJson,
  type Page,
  sampleOrg,
  screenshot,
  setupApp,
  waitForPath,
} from './support/harness.ts';

const app = setupApp();

// Valid GSTINs (check characters computed with @bahi/india's computeGstinCheckChar).
const maharashtra = '27AAPFU0939F1ZV';
const karnataka = '29ABCDE1234F1ZW';
const delhi = '07AAACR5055K1Z9';
/** Right shape, wrong check character: the kind of typo the checksum exists to catch. */
const badChecksum = '29ABCDE1234F1Z5';

interface OrganizationBody {
  legalName: string;
  gstins: Array<{ gstin: string; label: string | null; stateCode: string }>;
}

/** Opens /profile for a freshly onboarded user in a new page and waits for the form. */
async function openProfile(): Promise<Page> {
  const page = await app.newPage();
  await createUser(page, { emailPrefix: 'profile' });
  await page.goto('/profile');
  await page.getByText('GSTIN management', { exact: true }).waitFor();
  return page;
}

function gstinInput(page: Page) {
  return page.getByLabel('GSTIN', { exact: true });
}

function addButton(page: Page) {
  return page.getByRole('button', { name: 'Add', exact: true });
}

/** The rows of the GSTIN list, as their GSTIN text. */
async function listedGstins(page: Page): Promise<string[]> {
  const list = page.getByTestId('gstin-list');
  if ((await list.count()) === 0) return [];
  return list.locator('li .font-mono').allInnerTexts();
}

/** Types a GSTIN key by key, as a person would, and optionally a label, then clicks Add. */
async function addGstin(page: Page, gstin: string, label?: string): Promise<void> {
  await gstinInput(page).fill('');
  await gstinInput(page).pressSequentially(gstin);
  if (label !== undefined) await page.getByLabel('Label').fill(label);
  await addButton(page).click();
}

describe('profile', () => {
  test('GSTINs: typing is cleaned and counted, valid ones are added, duplicates and bad ones refused', async () => {
    const page = await openProfile();
    await page.getByText('No GSTINs added yet').waitFor();

    // Lower case, spaces and dashes are cleaned as they are typed; the counter follows.
    await gstinInput(page).pressSequentially('29 abc');
    expect(await gstinInput(page).inputValue()).toBe('29ABC');
    await expectText(page.getByTestId('gstin-counter'), '5/15');
    await gstinInput(page).pressSequentially('de-1234 f1zw');
    expect(await gstinInput(page).inputValue()).toBe(karnataka);
    await expectText(page.getByTestId('gstin-counter'), '15/15');
    // Nothing beyond 15 characters is accepted.
    await gstinInput(page).pressSequentially('X');
    expect(await gstinInput(page).inputValue()).toBe(karnataka);
    await page.getByText(/^Valid GSTIN · Karnataka$/).waitFor();
    expect(await addButton(page).isEnabled()).toBe(true);
    await page.getByLabel('Label').fill('Head office');
    await addButton(page).click();
    await expectCount(page.getByTestId('gstin-list').locator('li'), 1);
    expect(await gstinInput(page).inputValue()).toBe('');
    await expectText(page.getByTestId('gstin-counter'), '0/15');

    // Invalid: the message waits for the field to lose focus; Add stays disabled.
    await gstinInput(page).pressSequentially(badChecksum);
    expect(await addButton(page).isDisabled()).toBe(true);
    await expectCount(page.getByText('Invalid GSTIN format'), 0);
    await gstinInput(page).blur();
    await page.getByText('Invalid GSTIN format').waitFor();
    expect(await gstinInput(page).getAttribute('aria-invalid')).toBe('true');
    expect(await addButton(page).isDisabled()).toBe(true);
    await screenshot(page, 'profile-invalid-gstin');

    await addGstin(page, maharashtra, 'Pune plant');
    await addGstin(page, delhi);
    expect(await listedGstins(page)).toEqual([karnataka, maharashtra, delhi]);
    await expectText(page.getByTestId('summary-gstin-count'), '3');
    await expectText(page.getByTestId('summary-states'), '3');

    // The same GSTIN again (typed in lower case) is refused with a toast.
    await addGstin(page, maharashtra.toLowerCase());
    await page.getByText('Duplicate GSTIN', { exact: true }).waitFor();
    expect(await listedGstins(page)).toEqual([karnataka, maharashtra, delhi]);
    await screenshot(page, 'profile-duplicate-gstin');

    await page.getByRole('button', { name: `Remove GSTIN ${delhi}` }).click();
    expect(await listedGstins(page)).toEqual([karnataka, maharashtra]);

    // Nothing is saved until "Save Changes".
    const before = await getApiJson<OrganizationBody>(page, '/api/organization');
    expect(before.body.gstins).toEqual([]);

    await page.getByLabel('Legal name').fill('Acme Traders Pvt Ltd');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated', { exact: true }).waitFor();
    await screenshot(page, 'profile-saved');

    await page.reload();
    await page.getByText('GSTIN management', { exact: true }).waitFor();
    await expectCount(page.getByTestId('gstin-list').locator('li'), 2);
    // Saved as a set: the server may return them in its own order.
    expect((await listedGstins(page)).sort()).toEqual([maharashtra, karnataka]);
    await page.getByText('Head office').waitFor();
    await page.getByText('Pune plant').waitFor();
    expect(await page.getByLabel('Legal name').inputValue()).toBe('Acme Traders Pvt Ltd');
    await expectText(page.getByTestId('org-name'), 'Acme Traders Pvt Ltd');
    const after = await getApiJson<OrganizationBody>(page, '/api/organization');
    expect([...after.body.gstins].sort((a, b) => a.gstin.localeCompare(b.gstin))).toEqual([
      expect.objectContaining({ gstin: maharashtra, label: 'Pune plant', stateCode: '27' }),
      expect.objectContaining({ gstin: karnataka, label: 'Head office', stateCode: '29' }),
    ]);
  });

  test('legal name is required, in the form and at the server', async () => {
    const page = await openProfile();
    await page.getByLabel('Legal name').fill('   ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Legal name is required', { exact: true }).waitFor();
    expect(await page.getByLabel('Legal name').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'profile-legal-name-required');
    // The change is not saved: reloading asks first (the browser's own prompt), and leaving drops it.
    const prompt = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await page.reload();
    expect(await prompt).toBe('beforeunload');
    await page.getByText('GSTIN management', { exact: true }).waitFor();
    expect(await page.getByLabel('Legal name').inputValue()).toBe(sampleOrg.orgName);

    const put = (body: Record<string, unknown>) =>
      page.context().request.put('/api/organization', { data: body, headers: { origin: app.url } });
    const base = { phone: sampleOrg.phone, orgType: 'pvt_ltd', address: sampleOrg.address };
    const noName = await put({ ...base, legalName: '', gstins: [] });
    expect(noName.status()).toBe(400);
    expect(
      ((await noName.json()) as { error: { fields?: Record<string, string> } }).error.fields,
    ).toMatchObject({
      legalName: 'Legal name is required',
    });
    // Duplicates sent directly (bypassing the form) are refused too.
    const dup = await put({ ...base, legalName: 'X', gstins: [{ gstin: karnataka }, { gstin: karnataka }] });
    expect(dup.status()).toBe(400);
    expect(((await dup.json()) as { error: { code: string } }).error.code).toBe('duplicate_gstin');
    const invalid = await put({ ...base, legalName: 'X', gstins: [{ gstin: badChecksum }] });
    expect(invalid.status()).toBe(400);
    await waitForPath(page, '/profile');
  });
});
