import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { type UploadProgress, uploadAll } from './upload-files.ts';

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
        if (file.name === 'bad.pdf') throw new ApiError('unsupported_type', 'Only PDF and image files', 400);
        return {};
      },
    );
    expect(result).toEqual({ uploaded: 4, failed: 1 });
    expect(peak).toBe(2);
    expect(last.get(0)).toMatchObject({ state: 'done', loaded: 10 });
    expect(last.get(4)).toMatchObject({ state: 'failed', error: 'Only PDF and image files' });
  });
});
