import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hasDovecot, startDovecot, type TestMailServer } from '../../server/src/test/dovecot.ts';
import { buildMessage } from '../../server/src/test/mime.ts';
import { createUser, expectText, getApiJson, type Page, screenshot, setupApp } from './support/harness.ts';

// Documents that arrive by themselves, in a real browser: a flow with an e-mail source pointed at a real
// IMAP server (Dovecot on loopback) and "When documents arrive"; three messages land in the mailbox (two
// invoices in one, an invoice with a logo and a T&C sheet, a forwarded bill) and the rows appear without
// anybody pressing Run; the intake log lists the skipped files with their reasons.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
let mail: TestMailServer | undefined;

const app = setupApp(async () => {
  if (hasDovecot()) mail = await startDovecot();
  return {};
});

afterAll(async () => {
  await mail?.stop();
});

function flowCard(page: Page, name: string) {
  return page.getByTestId('flow-card').filter({ has: page.getByRole('heading', { name }) });
}

describe.skipIf(!hasDovecot())('e-mail intake', () => {
  it('takes mail in and runs the flow by itself', { timeout: 300_000 }, async () => {
    const server = mail!;
    const page = await app.newPage();
    await createUser(page);
    await page.goto('/parse');
    await page.getByRole('button', { name: 'Create First Flow' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Flow' });
    await form.waitFor();
    await form.getByLabel('Flow name').fill('Vendor mail');
    await form.getByText('INVOICE', { exact: true }).click();
    await form.getByText('E-mail inbox').click();
    await form.getByLabel('Mail server (IMAP)').fill(server.host);
    await form.getByLabel('Port').fill(String(server.port));
    await form.getByTestId('mail-tls').uncheck();
    await form.getByLabel('User name').fill(server.user);
    await form.getByLabel('Password or app password').fill(server.password);
    await form.getByTestId('trigger-arrival').check();
    await form.getByLabel('Output sheet name').fill('Vendor bills');
    await screenshot(page, 'intake-form');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await form.waitFor({ state: 'hidden' });
    const card = flowCard(page, 'Vendor mail');
    await expectText(card.getByTestId('next-run'), /Runs when documents arrive/);
    const flowId = (await card.getAttribute('data-flow-id')) ?? '';

    const pdf = (name: string) => readFile(join(fixtures, name));
    await server.append(
      'INBOX',
      buildMessage({
        from: 'billing@vendor-one.example',
        subject: 'Two invoices',
        parts: [
          { name: 'invoice-002.pdf', type: 'application/pdf', bytes: await pdf('invoice-002.pdf') },
          { name: 'invoice-003.pdf', type: 'application/pdf', bytes: await pdf('invoice-003.pdf') },
        ],
      }),
    );
    await server.append(
      'INBOX',
      buildMessage({
        from: 'billing@vendor-two.example',
        subject: 'Invoice with our terms',
        parts: [
          { name: 'logo.png', type: 'image/png', bytes: Buffer.alloc(800, 3), inline: true },
          {
            name: 'Terms & Conditions.pdf',
            type: 'application/pdf',
            bytes: await pdf('corrupt-invoice.pdf'),
          },
          { name: 'invoice-004.pdf', type: 'application/pdf', bytes: await pdf('invoice-004.pdf') },
        ],
      }),
    );
    const original = buildMessage({
      from: 'accounts@vendor-three.example',
      subject: 'Bill',
      parts: [{ name: 'invoice-018.pdf', type: 'application/pdf', bytes: await pdf('invoice-018.pdf') }],
    });
    await server.append(
      'INBOX',
      buildMessage({ from: 'me@buyer.example', subject: 'Fwd: Bill', forwarded: [original] }),
    );

    // Nobody presses Run: within the queue's minute tick the mailbox is read and a run starts and ends.
    await expect
      .poll(
        async () => {
          const runs = await getApiJson<{ items: Array<{ status: string }> }>(
            page,
            `/api/flows/${flowId}/runs`,
          );
          return runs.body.items.some((r) => r.status === 'succeeded');
        },
        { timeout: 240_000, interval: 2_000 },
      )
      .toBe(true);
    const docs = await getApiJson<{ items: Array<{ fileName: string }> }>(
      page,
      `/api/flows/${flowId}/documents`,
    );
    expect(docs.body.items.map((d) => d.fileName).sort()).toEqual([
      'invoice-002.pdf',
      'invoice-003.pdf',
      'invoice-004.pdf',
      'invoice-018.pdf',
    ]);

    await page.reload();
    await card.getByTestId('intake-toggle').click();
    const log = card.getByTestId('intake-log');
    await expectText(
      log.locator('tr', { hasText: 'logo.png' }),
      /Skipped — A small picture \(a logo or signature\)/,
    );
    await expectText(
      log.locator('tr', { hasText: 'Terms & Conditions.pdf' }),
      /Skipped — Terms and conditions/,
    );
    await expectText(log.locator('tr', { hasText: 'invoice-018.pdf' }), /Taken/);
    await screenshot(page, 'intake-log');
    await card.getByTestId('sheet-link').click();
    await expect
      .poll(() => page.getByTestId('sheet-row').count(), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(4);
  });
});
