import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtractionResult, IssuerMemory } from '@bahi/engine';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../modules/flows/test-support.ts';
import { FOLIO_VENDOR_GSTIN, folioInvoicePdf } from '../test/folio-invoice.ts';
import { strokedLinesPdf } from '../test/hostile-files.ts';
import { createWorkerPool, WorkerCrashError } from './worker-pool.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('worker pool', () => {
  it('counts and draws pages of PDFs and photos in a thread, and stops one past its time limit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bahi-preview-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const pool = createWorkerPool({ size: 1, hardTimeoutMs: 3000, unref: true });
    cleanups.push(() => pool.close());
    const pdf = join(fixturesDir, 'invoice-018.pdf');
    const frames = await pool.preview({ kind: 'preview-frames', path: pdf, maxPages: 100 });
    expect(frames).toMatchObject({ kind: 'frames', pageCount: 1 });
    const page = await pool.preview({ kind: 'preview-page', path: pdf, page: 1, width: 640 });
    expect(page.kind).toBe('page');
    const photo = join(dir, 'photo.jpg');
    await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#fff' } })
      .jpeg()
      .toFile(photo);
    const drawn = await pool.preview({ kind: 'preview-page', path: photo, page: 1, width: 640 });
    expect(drawn.kind === 'page' && (await sharp(Buffer.from(drawn.png)).metadata()).width).toBe(640);
    expect(await pool.preview({ kind: 'preview-page', path: pdf, page: 2, width: 640 })).toMatchObject({
      kind: 'refused',
      code: 'no_page',
    });
    // 3,000 page-wide strokes at 2400 px: a minute of drawing, stopped with its thread at 3 s.
    const slow = join(dir, 'slow.pdf');
    await writeFile(slow, strokedLinesPdf(3000));
    const error = await pool
      .preview({ kind: 'preview-page', path: slow, page: 1, width: 2400 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(WorkerCrashError);
    expect((error as WorkerCrashError).timedOut).toBe(true);
    // The pool goes on with a fresh thread.
    expect((await pool.preview({ kind: 'preview-page', path: pdf, page: 1, width: 640 })).kind).toBe('page');
  }, 60_000);

  it('extracts with the real engine and writes workbooks in worker threads', async () => {
    const pool = createWorkerPool({ size: 1, hardTimeoutMs: 120_000 });
    cleanups.push(() => pool.close());
    const pages: Array<[number, number]> = [];
    const result = onlyResult(
      await pool.extract(
        {
          path: join(fixturesDir, 'invoice-018.pdf'),
          fileName: 'invoice-018.pdf',
          type: 'invoice',
          timeoutMs: 60_000,
          maxBytes: 10_000_000,
        },
        (read, of) => pages.push([read, of]),
      ),
    );
    expect(result.error).toBeNull();
    // The thread tells the pages as it reads them, ending with all of them.
    expect(pages.at(-1)).toEqual([result.pages, result.pages]);
    expect(pages[0]).toEqual([0, result.pages]);
    expect(result.fields.documentNumber).toBe('TI-01650');

    const missing = onlyResult(
      await pool.extract({
        path: '/nonexistent/x.pdf',
        fileName: 'x.pdf',
        type: 'po',
        timeoutMs: 1000,
        maxBytes: 1000,
      }),
    );
    expect(missing.error?.code).toBe('unreadable_file');

    const dir = await mkdtemp(join(tmpdir(), 'bahi-pool-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'out.xlsx');
    await pool.writeWorkbook({
      path,
      data: {
        documentColumns: [{ key: 'total', label: 'Total', kind: 'money' }],
        lineColumns: [{ key: 'lineNo', label: 'Line No.', kind: 'number' }],
        documents: [{ total: 123456.78 }],
        lines: [],
      },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    expect(workbook.getWorksheet('Documents')!.getCell('A2').value).toBe(123456.78);
  });

  it('fails a task whose thread is killed (hard timeout) and keeps serving with a fresh thread', async () => {
    const pool = createWorkerPool({ size: 1, hardTimeoutMs: 1 });
    cleanups.push(() => pool.close());
    const task = {
      path: join(fixturesDir, 'invoice-018.pdf'),
      fileName: 'a.pdf',
      type: 'invoice' as const,
      timeoutMs: 1000,
      maxBytes: 1e7,
    };
    await expect(pool.extract(task)).rejects.toBeInstanceOf(WorkerCrashError);
    await expect(pool.extract(task)).rejects.toBeInstanceOf(WorkerCrashError);
  });

  it('stops a thread left idle, giving its memory back, and starts a fresh one for the next task', async () => {
    const pool = createWorkerPool({ size: 1, hardTimeoutMs: 120_000, idleMs: 100 });
    cleanups.push(() => pool.close());
    const task = {
      path: join(fixturesDir, 'invoice-018.pdf'),
      fileName: 'a.pdf',
      type: 'invoice' as const,
      timeoutMs: 60_000,
      maxBytes: 1e7,
    };
    expect(pool.threads).toBe(0);
    expect((await pool.extract(task))[0]!.error).toBeNull();
    expect(pool.threads).toBe(1);
    await expect.poll(() => pool.threads, { timeout: 5000 }).toBe(0);
    expect((await pool.extract(task))[0]!.fields.documentNumber).toBe('TI-01650');
  });

  it("learns in a thread and recalls the issuer's memory from the main thread over the port", async () => {
    const pool = createWorkerPool({ size: 1, hardTimeoutMs: 120_000 });
    cleanups.push(() => pool.close());
    const dir = await mkdtemp(join(tmpdir(), 'bahi-pool-memory-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const first = join(dir, 'first.pdf');
    const second = join(dir, 'second.pdf');
    await writeFile(first, folioInvoicePdf('AT/101', '05/01/2025'));
    await writeFile(second, folioInvoicePdf('AT/117', '19/02/2025'));
    const task = {
      path: second,
      fileName: 'second.pdf',
      type: 'invoice' as const,
      timeoutMs: 60_000,
      maxBytes: 1e7,
    };

    const read = onlyResult(await pool.extract({ ...task, path: first, fileName: 'first.pdf' }));
    const memory = await pool.learn({
      path: first,
      type: 'invoice',
      fields: { ...read.fields, documentNumber: 'AT/101' },
      known: null,
      taught: ['documentNumber'],
      learnedAt: '2025-01-06T10:00:00.000Z',
      timeoutMs: 60_000,
    });
    expect(memory?.key).toBe(`gstin:${FOLIO_VENDOR_GSTIN}`);
    expect(memory?.recipes.documentNumber?.from).toEqual({
      documentNumber: 'AT/101',
      learnedAt: '2025-01-06T10:00:00.000Z',
    });

    // The thread asks; this thread answers from its callback (in the server: the organisation's rows).
    const asked: Array<{ type: string; keys: string[] }> = [];
    const recalled = onlyResult(
      await pool.extract(task, undefined, async (type, keys) => {
        asked.push({ type, keys });
        return keys.includes(memory!.key) ? (memory as IssuerMemory) : null;
      }),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ type: 'invoice', keys: expect.arrayContaining([memory!.key]) });
    expect(recalled.fields.documentNumber).toBe('AT/117');
    expect(recalled.provenance.documentNumber?.learnedFrom).toBe('AT/101');

    // Without a callback nothing is asked; a callback that fails is no memory, never a failed document.
    const plain = onlyResult(await pool.extract(task));
    expect(plain.fields.documentNumber).not.toBe('AT/117');
    const failing = onlyResult(
      await pool.extract(task, undefined, async () => {
        throw new Error('database unreachable');
      }),
    );
    expect(failing.error).toBeNull();
    expect(failing.fields.documentNumber).toBe(plain.fields.documentNumber);
    expect(failing.provenance.documentNumber?.learnedFrom).toBeUndefined();

    // A file that cannot be read teaches nothing and says why.
    await expect(
      pool.learn({
        path: join(dir, 'gone.pdf'),
        type: 'invoice',
        fields: {},
        known: null,
        taught: [],
        learnedAt: '2025-01-06T10:00:00.000Z',
        timeoutMs: 1000,
      }),
    ).rejects.toThrow(/ENOENT|no such file/);
  }, 120_000);

  it('refuses work after close', async () => {
    const pool = createWorkerPool({ size: 1, hardTimeoutMs: 1000 });
    await pool.close();
    await expect(
      pool.writeWorkbook({
        path: '/tmp/x.xlsx',
        data: { documentColumns: [], lineColumns: [], documents: [], lines: [] },
      }),
    ).rejects.toThrow(/closed/);
  });
});

/** The one result of a file read whole (an extract task without `split`). */
function onlyResult(results: ExtractionResult[]): ExtractionResult {
  expect(results).toHaveLength(1);
  return results[0]!;
}
