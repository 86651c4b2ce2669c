import { type SkippedFile, UPLOAD_EXTENSIONS, type UploadResult } from '@bahi/contracts';
import { toApiError } from '../../lib/api.ts';
import { api } from '../../lib/endpoints.ts';

/** Progress of one file being uploaded, and what the server made of it. */
export interface UploadProgress {
  name: string;
  size: number;
  loaded: number;
  /** `skipped`: the server answered but added nothing from this file (each reason in `skipped`). */
  state: 'waiting' | 'uploading' | 'done' | 'skipped' | 'failed';
  error?: string;
  /** Documents the server added from this file (a .zip may hold several). */
  added?: number;
  /** Files the server did not take, each with its reason (a .zip's entries are named inside it). */
  skipped?: SkippedFile[];
  /** Files the server took under a changed name, each with why. */
  renamed?: UploadResult['renamed'];
}

/** What one upload batch did, counted from the server's answers. */
export interface UploadSummary {
  /** Documents added to the inbox (a .zip of three PDFs counts three). */
  added: number;
  /** Files and zip entries the server skipped, with reasons. */
  skipped: number;
  /** Uploads that failed outright (network, server refused the request). */
  failed: number;
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
 * file's progress and the server's answer through `onUpdate`. Resolves when all have finished,
 * failed ones included, with what was really added. `upload` is the single-file sender (XHR in the
 * browser; a stand-in in tests).
 */
export async function uploadAll(
  url: string,
  files: readonly File[],
  onUpdate: (index: number, progress: UploadProgress) => void,
  concurrency = 2,
  upload: typeof uploadFile = uploadFile,
): Promise<UploadSummary> {
  let next = 0;
  const summary: UploadSummary = { added: 0, skipped: 0, failed: 0 };
  async function work(): Promise<void> {
    while (next < files.length) {
      const index = next++;
      const file = files[index] as File;
      const base = { name: file.name, size: file.size };
      onUpdate(index, { ...base, loaded: 0, state: 'uploading' });
      try {
        // Checked in every build, unlike `callEndpoint`'s answers: a file's outcome is told from it.
        const answer = api.uploadFiles.response.safeParse(
          await upload(url, file, (loaded) => onUpdate(index, { ...base, loaded, state: 'uploading' })),
        );
        if (!answer.success)
          throw new Error('The server gave an answer this page does not understand; reload it');
        const { stored, skipped, renamed } = answer.data;
        summary.added += stored.length;
        summary.skipped += skipped.length;
        onUpdate(index, {
          ...base,
          loaded: file.size,
          state: stored.length > 0 ? 'done' : 'skipped',
          added: stored.length,
          skipped,
          renamed,
        });
      } catch (error) {
        summary.failed += 1;
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
  return summary;
}

/** The toast after a batch: what was added and what was not, never a success that did not happen. */
export function describeUploadSummary(summary: UploadSummary): {
  tone: 'success' | 'warning' | 'error';
  text: string;
} {
  const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const parts: string[] = [];
  if (summary.skipped > 0) parts.push(`${files(summary.skipped)} skipped`);
  if (summary.failed > 0) parts.push(`${files(summary.failed)} failed to upload`);
  if (summary.added === 0)
    return {
      tone: 'error',
      text: `Nothing was added to the inbox${parts.length ? `: ${parts.join(', ')}` : ''}`,
    };
  const text = `${files(summary.added)} added to the inbox${parts.length ? `; ${parts.join(', ')}` : ''}`;
  return { tone: parts.length ? 'warning' : 'success', text };
}
