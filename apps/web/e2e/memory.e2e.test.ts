import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client.ts';
import { folioInvoicePdf } from '../../server/src/test/folio-invoice.ts';
import {
  createUploadFlow,
  createUser,
  expectText,
  getApiJson,
  type Page,
  screenshot,
  setupApp,
  uploadAndRun,
} from './support/harness.ts';

// Memory from corrections, as a finance person meets it: a vendor whose invoices call their number
// "Folio" (a label the rules do not know), its number corrected once on the review screen, and the
// vendor's next invoice read right with a note saying which correction taught it — until "Forget".

interface DocumentList {
  items: Array<{ id: string; fileName: string }>;
}
interface ReviewBody {
  document: {
    extraction: {
      fields: Record<string, unknown>;
      provenance: Record<string, { learnedFrom?: string | null }>;
    };
  };
}

const files = await mkdtemp(join(tmpdir(), 'bahi-memory-e2e-'));
afterAll(() => rm(files, { recursive: true, force: true }));

/** Writes a Folio-vendor invoice, uploads it to the flow, runs the flow and returns the document's id. */
async function readInvoice(page: Page, flowId: string, ref: string, date: string): Promise<string> {
  const name = `acme-${ref.replace('/', '-')}.pdf`;
  await writeFile(join(files, name), folioInvoicePdf(ref, date));
  await uploadAndRun(page, flowId, { [name]: join(files, name) });
  const { body } = await getApiJson<DocumentList>(page, `/api/flows/${flowId}/documents`);
  return body.items.find((d) => d.fileName === name)!.id;
}

describe('memory from corrections', () => {
  const app = setupApp();

  /** The organisation's remembered issuers, straight from the database (the test's own view). */
  const memories = () =>
    queryRows<{ memory: { recipes: Record<string, unknown>; forgotten?: string[] } }>(
      app.server.db,
      sql`SELECT memory FROM issuer_memories`,
    );

  it("reads a vendor's next invoice the way a person corrected the last one, and forgets it when asked", async () => {
    const page = await app.newPage({ viewport: { width: 1366, height: 900 } });
    await createUser(page, { emailPrefix: 'memory' });
    const flowId = await createUploadFlow(page, 'Purchase bills');

    // The first invoice: its number is not read (nothing labels it the way the rules know).
    const firstId = await readInvoice(page, flowId, 'AT/101', '05/01/2025');
    await page.goto(`/flows/${flowId}/documents/${firstId}`);
    const number = page.locator('[data-key="documentNumber"] input');
    await number.waitFor();
    expect(await number.inputValue()).not.toBe('AT/101');
    await number.fill('AT/101');
    await number.press('Enter');
    await expectText(page.getByTestId('review-trail'), /AT\/101/);
    // Learning runs as a job in the worker pool; the lesson lands in the organisation's memory.
    await expect
      .poll(async () => (await memories())[0]?.memory.recipes.documentNumber ?? null, { timeout: 60_000 })
      .not.toBeNull();

    // The vendor's next invoice: its number read right, with the note and the way to forget it.
    const secondId = await readInvoice(page, flowId, 'AT/117', '19/02/2025');
    await page.goto(`/flows/${flowId}/documents/${secondId}`);
    await number.waitFor();
    expect(await number.inputValue()).toBe('AT/117');
    const note = page.locator('[data-key="documentNumber"]').getByTestId('learned-note');
    await expectText(note, /Learned from your correction on AT\/101/);
    await page.getByRole('img', { name: 'Page 1 of the document' }).waitFor();
    await number.focus();
    await screenshot(page, 'memory-01-learned-note-desktop');

    const phone = await app.newPage({ viewport: { width: 390, height: 844 } });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`/flows/${flowId}/documents/${secondId}`);
    const phoneNote = phone.locator('[data-key="documentNumber"]').getByTestId('learned-note');
    await expectText(phoneNote, /Learned from your correction on AT\/101/);
    await phoneNote.scrollIntoViewIfNeeded();
    await screenshot(phone, 'memory-02-learned-note-phone');

    // Forget: the note goes, the value stays, and the vendor's memory no longer holds the number.
    await note.getByRole('button', { name: 'Forget' }).click();
    await expect.poll(() => note.count()).toBe(0);
    expect(await number.inputValue()).toBe('AT/117');
    const { body } = await getApiJson<ReviewBody>(page, `/api/documents/${secondId}/review`);
    expect(body.document.extraction.provenance.documentNumber?.learnedFrom).toBeUndefined();
    const [left] = await memories();
    expect(left?.memory.recipes.documentNumber).toBeUndefined();
    expect(left?.memory.forgotten).toContain('documentNumber');

    // The next invoice is read by the rules alone again.
    const thirdId = await readInvoice(page, flowId, 'AT/130', '02/03/2025');
    const third = await getApiJson<ReviewBody>(page, `/api/documents/${thirdId}/review`);
    expect(third.body.document.extraction.fields.documentNumber).not.toBe('AT/130');
  }, 240_000);
});
