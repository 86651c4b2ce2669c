import { UPLOAD_EXTENSIONS } from '@bahi/contracts';
import { toApiError } from '../../lib/api.ts';

/** Progress of one file being uploaded. */
export interface UploadProgress {
  name: string;
  size: number;
  loaded: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  error?: string;
}

/** File kinds the inbox accepts, as the contracts declare them (the server checks again). */
export const ACCEPTED_UPLOAD_TYPES = UPLOAD_EXTENSIONS.join(',');

/**
 * Uploads one file as multipart `files` to `url` with XHR, because `fetch` cannot report upload
 * progress. Resolves with the parsed JSON answer; rejects with `ApiError` on a non-2xx answer.
 */
export function uploadFile(url: string, file: File, onProgress: (loaded: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onerror = () => reject(toApiError(0, null));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size);
        resolve(body);
      } else reject(toApiError(xhr.status, body));
    };
    const form = new FormData();
    form.append('files', file, file.name);
    xhr.send(form);
  });
}

/**
 * Uploads files two at a time (the machine serving a small team is small too), reporting each
 * file's progress through `onUpdate`. Resolves when all have finished, failed ones included.
 * `upload` is the single-file sender (XHR in the browser; a stand-in in tests).
 */
export async function uploadAll(
  url: string,
  files: readonly File[],
  onUpdate: (index: number, progress: UploadProgress) => void,
  concurrency = 2,
  upload: typeof uploadFile = uploadFile,
): Promise<{ uploaded: number; failed: number }> {
  let next = 0;
  let uploaded = 0;
  let failed = 0;
  async function work(): Promise<void> {
    while (next < files.length) {
      const index = next++;
      const file = files[index] as File;
      const base = { name: file.name, size: file.size };
      onUpdate(index, { ...base, loaded: 0, state: 'uploading' });
      try {
        await upload(url, file, (loaded) => onUpdate(index, { ...base, loaded, state: 'uploading' }));
        uploaded += 1;
        onUpdate(index, { ...base, loaded: file.size, state: 'done' });
      } catch (error) {
        failed += 1;
        onUpdate(index, {
          ...base,
          loaded: 0,
          state: 'failed',
          error: error instanceof Error ? error.message : 'Upload failed',
        });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, work));
  return { uploaded, failed };
}
