import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { describeUploadSummary, type UploadProgress, uploadAll } from './upload-files.ts';

describe('uploadAll', () => {
  it('sends at most two files at once and reports each file to the end', async () => {
    const files = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'bad.pdf'].map(
      (name) => new File(['x'.repeat(10)], name),
    );
    let inFlight = 0;
    let peak = 0;
    const last = new Map<number, UploadProgress>();
    const result = await uploadAll(
      '/api/flows/f/uploads',
      files,
      (index, progress) => last.set(index, progress),
      2,
      async (_url, file, onProgress) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        onProgress(5);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        if (file.name === 'bad.pdf') throw new ApiError('validation', 'Only PDF and image files', 400);
        return answer([file.name]);
      },
    );
    expect(result).toEqual({ added: 4, skipped: 0, failed: 1 });
    expect(peak).toBe(2);
    expect(last.get(0)).toMatchObject({ state: 'done', loaded: 10, added: 1 });
    expect(last.get(4)).toMatchObject({ state: 'failed', error: 'Only PDF and image files' });
  });

  it("counts what the server really added: a zip's documents, and files it skipped with their reasons", async () => {
    const files = [new File(['zip'], 'batch.zip'), new File(['gif'], 'logo.csv')];
    const last = new Map<number, UploadProgress>();
    const result = await uploadAll(
      '/u',
      files,
      (i, p) => last.set(i, p),
      2,
      async (_url, file) =>
        file.name === 'batch.zip'
          ? answer(
              ['a.pdf', 'b.pdf', 'c.pdf'],
              [{ name: 'batch.zip/notes.txt', reason: 'Not a supported document type' }],
            )
          : answer([], [{ name: 'logo.csv', reason: 'Not a supported document type (.csv)' }]),
    );
    expect(result).toEqual({ added: 3, skipped: 2, failed: 0 });
    expect(last.get(0)).toMatchObject({ state: 'done', added: 3 });
    expect(last.get(1)).toMatchObject({
      state: 'skipped',
      added: 0,
      skipped: [{ name: 'logo.csv', reason: 'Not a supported document type (.csv)' }],
    });
    expect(describeUploadSummary(result)).toEqual({
      tone: 'warning',
      text: '3 files added to the inbox; 2 files skipped',
    });
    expect(describeUploadSummary({ added: 0, skipped: 4, failed: 0 })).toEqual({
      tone: 'error',
      text: 'Nothing was added to the inbox: 4 files skipped',
    });
    expect(describeUploadSummary({ added: 1, skipped: 0, failed: 0 }).text).toBe('1 file added to the inbox');
  });
});

/** A server answer that stored `names` and skipped `skipped`. */
function answer(names: string[], skipped: Array<{ name: string; reason: string }> = []) {
  return {
    stored: names.map((fileName, i) => ({
      id: `u${i}`,
      fileName,
      sha256: 'x',
      size: 1,
      createdAt: '2026-11-24T00:00:00Z',
    })),
    skipped,
    renamed: [],
  };
}
