import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FlowInput } from '@bahi/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documents, runs } from '../../db/schema/index.ts';
import { createValidationError, isAppError } from '../../lib/app-error.ts';
import { getDocumentFile } from '../../modules/documents/documents.service.ts';
import { createWorkflow, requireFlow } from '../../modules/flows/flows.service.ts';
import { readFixture } from '../../modules/flows/test-support.ts';
import { processFolder } from '../../modules/legacy/legacy.service.ts';
import { startRun } from '../../modules/runs/runs.service.ts';
import { createFlowHarness, type FlowHarness } from '../../test/flow-harness.ts';
import { SOURCES } from './index.ts';
import { hashBytes, type SourceAdapter } from './source.ts';

// A source kind written in this file only — files held in memory — and given to the services through the
// registry, to show that the registry is the one switch: saving a flow, starting, scanning and extracting a
// run, serving a document and the legacy ad-hoc folder route all reach it without knowing it. The flow
// contract's `io.input.kind` is a closed enum of @bahi/contracts, so a kind it does not name cannot be
// saved; the in-memory source takes the `local` entry for these tests, which is all the services see of a
// kind.

let h: FlowHarness;
const realLocal = SOURCES.local;

beforeAll(async () => {
  h = await createFlowHarness();
});

afterEach(() => {
  SOURCES.local = realLocal;
});

afterAll(() => h.close());

/** Saves a flow reading `input` through the services (the adapter's `validate` decides). */
function saveFlow(name: string, input: Omit<FlowInput, 'folderName'>) {
  return createWorkflow(h.t.db, {
    env: h.env,
    user: h.member.user,
    membership: h.member.membership,
    input: {
      name,
      types: ['INVOICE'],
      io: { input: { ...input, folderName: '' }, output: { kind: 'xlsx', sheetId: '', sheetName: name } },
    },
  });
}

/**
 * Documents held in memory. The listing gives each file's hash and no readable path, so a scan that read a
 * file would fail; `locate` writes the bytes out when extraction or the document view asks for them.
 */
function createMemorySource(files: Map<string, Uint8Array>, calls: string[]): SourceAdapter {
  const staged = join(h.dataDir, 'in-memory');
  return {
    async validate(_ctx, { input }) {
      calls.push('validate');
      if (!input.url.startsWith('memory:')) throw createValidationError({ url: 'Not a memory address' });
      return input;
    },
    async checkRunnable() {
      calls.push('checkRunnable');
    },
    async open() {
      calls.push('open');
      return {
        kind: 'local',
        async *list() {
          for (const [name, bytes] of files)
            yield {
              file: {
                sourceId: name,
                name,
                path: `memory:${name}`,
                size: bytes.length,
                modifiedAt: null,
                sha256: hashBytes(bytes),
              },
            };
        },
      };
    },
    async locate(_ctx, doc) {
      calls.push('locate');
      await mkdir(staged, { recursive: true });
      const path = join(staged, doc.sourceId);
      await writeFile(path, files.get(doc.sourceId)!);
      return path;
    },
    async servedFrom() {
      calls.push('servedFrom');
      return [staged];
    },
    folderName: (url) => `Memory ${url.slice('memory:'.length)}`,
  };
}

describe('the source registry', () => {
  it('runs a source kind registered only here through every service that reads sources', async () => {
    const bytes = await readFixture('invoice-011.pdf');
    const calls: string[] = [];
    SOURCES.local = createMemorySource(new Map([['invoice-011.pdf', bytes]]), calls);

    const wf = await saveFlow('Memory', { kind: 'local', url: '  memory:inbox ' });
    expect(wf.io.input.url).toBe('memory:inbox');
    const { t, env, jobs, member } = h;
    const flow = await requireFlow(t.db, member.membership, wf.id);
    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    await h.drainJobs();

    const [finished] = await t.db.select().from(runs).where(eq(runs.id, run.id));
    expect(finished?.status).toBe('succeeded');
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    expect(docs).toHaveLength(1);
    const [doc] = docs;
    expect(doc).toMatchObject({
      sourceKind: 'local',
      sourceId: 'invoice-011.pdf',
      sourcePath: 'memory:invoice-011.pdf',
      contentHash: hashBytes(bytes),
    });
    expect(['done', 'needs_review']).toContain(doc?.status);
    // The scan took the hash from the listing (it read no file); only extraction asked where the bytes are.
    expect(calls).toEqual(['validate', 'checkRunnable', 'open', 'locate']);

    const served = await getDocumentFile(t.db, { env, membership: member.membership, id: doc!.id });
    expect(new Uint8Array(await readFile(served.path))).toEqual(bytes);
    expect(calls.slice(4)).toEqual(['locate', 'servedFrom']);

    // The legacy ad-hoc folder route checks and names the folder through the same adapter.
    const adHoc = await processFolder(t.db, {
      env,
      jobs,
      user: member.user,
      membership: member.membership,
      input: {
        folderPath: 'memory:august',
        type: 'INVOICE',
      },
    });
    const [adHocRun] = await t.db.select().from(runs).where(eq(runs.id, adHoc.runId));
    const adHocFlow = await requireFlow(t.db, member.membership, adHocRun!.flowId);
    expect(adHocFlow.name).toBe('Memory august (INVOICE)');
    await h.drainJobs();
    expect(calls.slice(6)).toEqual(['checkRunnable', 'validate', 'checkRunnable', 'open', 'locate']);

    // With the real entry back, the same input is refused by the real local folder rules.
    SOURCES.local = realLocal;
    const refused = await saveFlow('Memory again', { kind: 'local', url: 'memory:inbox' }).catch(
      (e: unknown) => e,
    );
    expect(isAppError(refused, 'validation')).toBe(true);
  });

  it('is the one switch: no other server module compares a source or sink kind', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const kinds = '(?:upload|local|drive|email|xlsx|sheets)';
    const comparison = new RegExp(
      `\\b(?:kind|sourceKind)\\s*[!=]==?\\s*['"]${kinds}['"]|['"]${kinds}['"]\\s*[!=]==?\\s*[\\w.?]*kind\\b|case\\s+['"]${kinds}['"]`,
    );
    const offenders: string[] = [];
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      const lines = (await readFile(path, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (comparison.test(line)) offenders.push(`${relative(root, path)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
