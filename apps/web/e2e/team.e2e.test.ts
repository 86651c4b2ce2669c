import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AxeFinding, auditAccessibility } from './support/axe.ts';
import {
  chooseOption,
  createUploadFlow,
  createUser,
  expectText,
  getApiJson,
  makeEmail,
  type Page,
  screenshot,
  setupApp,
  uploadAndRun,
  waitForPath,
} from './support/harness.ts';

// A finance team, not one user: the owner invites a reviewer and an approver by link; the reviewer corrects
// an invoice to ₹2,50,000 and cannot approve it (the button says why, and the server refuses too); the
// approver approves it; the owner's audit trail shows the correction, the refusal and the approval. The new
// screens pass axe at desktop and phone width.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The owner makes an invitation link for `role` on the Team screen and reads it from the page. */
async function inviteOnTeamScreen(page: Page, role: 'Reviewer' | 'Approver'): Promise<string> {
  await page.goto('/team');
  await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
  await chooseOption(page, 'Role of the person invited', role);
  await page.getByRole('button', { name: 'Make invitation link' }).click();
  const link = page.getByLabel('Invitation link');
  await expect.poll(() => link.inputValue().catch(() => '')).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  return link.inputValue();
}

/** A new person opens the link signed out, creates an account from it and joins. */
async function joinByLink(page: Page, link: string, name: string): Promise<void> {
  await page.goto(new URL(link).pathname);
  await page.getByRole('heading', { name: /^Join / }).waitFor();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await waitForPath(page, '/signup');
  await page.getByLabel('Full name', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(makeEmail(name.split(' ')[0]!.toLowerCase()));
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-42');
  await page.getByRole('button', { name: 'Create account' }).click();
  // Back to the invitation, not to onboarding: the person joins the team instead of starting an organisation.
  await waitForPath(page, new URL(link).pathname);
  await page.getByRole('button', { name: /^Join / }).click();
  await waitForPath(page, '/');
}

describe('a finance team', () => {
  const app = setupApp();

  it('keeps an invoice above the limit from its reviewer; an approver approves it; the trail shows all three', async () => {
    const owner = await app.newPage({ viewport: DESKTOP });
    await createUser(owner, { name: 'Meera Owner', emailPrefix: 'owner' });
    const flowId = await createUploadFlow(owner, 'Purchase bills');
    await uploadAndRun(owner, flowId, { 'bill.pdf': join(fixtures, 'invoice-018.pdf') });
    const docs = await getApiJson<{ items: Array<{ id: string }> }>(owner, `/api/flows/${flowId}/documents`);
    const documentId = docs.body.items[0]!.id;

    const reviewerLink = await inviteOnTeamScreen(owner, 'Reviewer');
    const approverLink = await inviteOnTeamScreen(owner, 'Approver');
    await expectText(owner.getByRole('heading', { name: 'Pending invitations' }), 'Pending invitations');
    await screenshot(owner, 'team-01-invitations', { fullPage: true });

    // The reviewer joins and corrects the total to ₹2,50,000.
    const reviewer = await app.newPage({ viewport: DESKTOP });
    await joinByLink(reviewer, reviewerLink, 'Ravi Reviewer');
    await reviewer.goto(`/flows/${flowId}/documents/${documentId}`);
    const total = reviewer.getByLabel('Total', { exact: true });
    await total.fill('2,50,000');
    await total.press('Enter');
    await expectText(reviewer.getByTestId('review-trail'), /changed Total from \d+ to 250000/);

    // The Approve button is disabled, and says why.
    const approve = reviewer.getByRole('button', { name: 'Approve', exact: true });
    await expect.poll(() => approve.isDisabled()).toBe(true);
    await expectText(
      reviewer.getByTestId('role-note'),
      'This invoice totals ₹2,50,000, above the approval limit of ₹1,00,000: an approver or owner must approve it.',
    );
    await reviewer.keyboard.press('Escape');
    await reviewer.evaluate(() => window.scrollTo(0, 0));
    await screenshot(reviewer, 'team-02-reviewer-cannot-approve');
    // Going round the button does not help: the server refuses and names the rule.
    const refused = await reviewer.evaluate(async (id) => {
      const res = await fetch(`/api/documents/${id}/approve`, { method: 'POST' });
      return { status: res.status, body: (await res.json()) as { error: { message: string } } };
    }, documentId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'Approval limit: this invoice totals ₹2,50,000, and invoices above ₹1,00,000 must be approved by an approver or owner (your role is reviewer).',
    );

    // The approver joins and approves it.
    const approver = await app.newPage({ viewport: DESKTOP });
    await joinByLink(approver, approverLink, 'Anita Approver');
    await approver.goto(`/flows/${flowId}/documents/${documentId}`);
    const approveButton = approver.getByRole('button', { name: 'Approve', exact: true });
    await expect.poll(() => approveButton.isEnabled()).toBe(true);
    await approveButton.click();
    // The corrected total no longer adds up with the taxes: approving over that failed check asks why.
    const note = approver.getByTestId('approval-note');
    if (
      await note.waitFor({ state: 'visible', timeout: 5000 }).then(
        () => true,
        () => false,
      )
    ) {
      await note.getByRole('textbox').fill('Total confirmed with the vendor on the phone');
      await note.getByRole('button', { name: 'Approve with this note' }).click();
    }
    await expect
      .poll(
        async () =>
          (await getApiJson<{ approvedBy: string | null }>(approver, `/api/documents/${documentId}/review`))
            .body.approvedBy,
      )
      .toBe('Anita Approver');

    // The owner's audit trail, filtered to the document: correction, refusal, approval.
    await owner.goto('/audit');
    await owner.getByLabel('Document id').fill(documentId);
    const entries = owner.getByRole('list', { name: 'Audit entries' }).locator('li');
    await expect
      .poll(async () => entries.evaluateAll((items) => items.map((li) => li.getAttribute('data-kind'))))
      .toEqual(['document.approved', 'document.approval_refused', 'document.corrected']);
    await expectText(entries.nth(0), /Anita Approver approved bill\.pdf/);
    await expectText(entries.nth(1), /Ravi Reviewer was refused an approval/);
    await expectText(entries.nth(2), /Ravi Reviewer changed Total from \d+ to 250000 on bill\.pdf/);
    await screenshot(owner, 'team-03-audit-trail', { fullPage: true });

    // The Team screen lists the three members with their roles.
    await owner.goto('/team');
    await owner.getByRole('heading', { name: 'Members' }).waitFor();
    await expectText(owner.getByRole('combobox', { name: 'Role of Ravi Reviewer' }), 'Reviewer');
    await expectText(owner.getByRole('combobox', { name: 'Role of Anita Approver' }), 'Approver');
  });

  it('has no serious or critical axe violation on the Team, Audit and invitation screens', async () => {
    const findings: AxeFinding[] = [];
    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const owner = await app.newPage({ viewport });
      await createUser(owner, { name: 'Asha Verma', emailPrefix: `team-a11y-${width}` });
      const link = await inviteOnTeamScreen(owner, 'Reviewer');
      // The toast saying the link is made is the app-wide one (checked elsewhere); the screen is checked after.
      await expect.poll(() => owner.locator('[data-sonner-toast]').count(), { timeout: 15_000 }).toBe(0);
      findings.push(...(await auditAccessibility(owner, `team-a11y-${width}-team`)));
      await owner.goto('/audit');
      await owner.getByRole('list', { name: 'Audit entries' }).waitFor();
      findings.push(...(await auditAccessibility(owner, `team-a11y-${width}-audit`)));
      const guest = await app.newPage({ viewport });
      await guest.goto(new URL(link).pathname);
      await guest.getByRole('heading', { name: /^Join / }).waitFor();
      findings.push(...(await auditAccessibility(guest, `team-a11y-${width}-invite`)));
    }
    expect(findings).toEqual([]);
  });
});
