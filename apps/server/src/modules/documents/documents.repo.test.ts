import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { financialYearOf, findPossibleDuplicate } from './documents.repo.ts';

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let flowId: string;

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Repo Owner');
  flowId = (
    await createWorkflow(t.db, {
      env,
      user: owner.user,
      membership: owner.membership,
      input: {
        name: 'Bills',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: 'Bills' },
        },
      },
    })
  ).id;
});

afterAll(async () => {
  await t.close();
  await cleanup();
});

/** A read invoice of the flow with these header fields. */
async function insertInvoice(name: string, hash: string, fields: Record<string, string>) {
  const [row] = await t.db
    .insert(documents)
    .values({
      organizationId: owner.membership.organizationId,
      flowId,
      sourceId: name,
      contentHash: hash,
      fileName: name,
      status: 'done',
      processedAt: new Date(),
      extraction: { documentType: 'invoice', fields },
    })
    .returning();
  return row!;
}

describe('findPossibleDuplicate', () => {
  it('finds the same vendor and number in the same financial year, or the same bytes', async () => {
    const original = await insertInvoice('a.pdf', 'hash-a', {
      documentNumber: 'INV/25-26/0007',
      documentDate: '2026-03-30',
      vendorGstin: '27DEQFU9689H2ZP',
    });
    const key = {
      contentHash: 'hash-b',
      documentType: 'invoice',
      documentNumber: 'inv/25-26/ 0007',
      vendorGstin: '27deqfu9689h2zp',
      vendorName: null,
    };
    const org = owner.membership.organizationId;
    // 30 March and 2 April straddle the year end: numbers start again, so no duplicate.
    expect(
      await findPossibleDuplicate(t.db, {
        organizationId: org,
        documentId: 'b0000000-0000-4000-8000-000000000000',
        key: {
          ...key,
          documentDate: '2026-04-02',
        },
      }),
    ).toBeNull();
    expect(
      await findPossibleDuplicate(t.db, {
        organizationId: org,
        documentId: 'b0000000-0000-4000-8000-000000000000',
        key: {
          ...key,
          documentDate: '2025-04-01',
        },
      }),
    ).toBe(original.id);
    // Another vendor with the same number is not a duplicate; the same bytes always are.
    expect(
      await findPossibleDuplicate(t.db, {
        organizationId: org,
        documentId: 'b0000000-0000-4000-8000-000000000000',
        key: {
          ...key,
          documentDate: '2025-12-01',
          vendorGstin: '29AABCT1332L1ZA',
        },
      }),
    ).toBeNull();
    expect(
      await findPossibleDuplicate(t.db, {
        organizationId: org,
        documentId: 'b0000000-0000-4000-8000-000000000000',
        key: {
          contentHash: 'hash-a',
          documentType: null,
          documentNumber: null,
          documentDate: null,
          vendorGstin: null,
          vendorName: null,
        },
      }),
    ).toBe(original.id);
    // Never itself.
    expect(
      await findPossibleDuplicate(t.db, {
        organizationId: org,
        documentId: original.id,
        key: {
          ...key,
          contentHash: 'hash-a',
          documentDate: '2026-03-30',
        },
      }),
    ).toBeNull();
  });

  it('dates financial years from April', () => {
    expect(financialYearOf('2026-03-31')).toBe(2025);
    expect(financialYearOf('2026-04-01')).toBe(2026);
    expect(financialYearOf(null)).toBeNull();
  });
});
