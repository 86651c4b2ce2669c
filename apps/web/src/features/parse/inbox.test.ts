import type { FlowDocument } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { mergeInbox, type UploadedFile } from './inbox.ts';

const upload = (fileName: string, size: number): UploadedFile => ({
  id: `u-${fileName}`,
  fileName,
  sha256: 'x',
  size,
  createdAt: '2026-11-21T10:00:00Z',
});
const document = (fileName: string, size: number, status: FlowDocument['status']): FlowDocument => ({
  id: `d-${fileName}`,
  flowId: 'f',
  runId: 'r',
  fileName,
  sourceKind: 'upload',
  size,
  status,
  error: null,
  failedChecks: [],
  reviewFlag: null,
  processedAt: null,
  fileUrl: `/api/documents/d-${fileName}/file`,
  pageRange: null,
});

describe('mergeInbox', () => {
  it('lists unread uploads as new, before the documents', () => {
    const entries = mergeInbox(
      [upload('a.pdf', 10), upload('b.pdf', 20), upload('c.pdf', 30)],
      [document('a.pdf', 10, 'done'), document('b.pdf', 20, 'failed')],
    );
    expect(
      entries.map((e) =>
        e.kind === 'upload' ? `new:${e.upload.fileName}` : `${e.document.status}:${e.document.fileName}`,
      ),
    ).toEqual(['new:c.pdf', 'done:a.pdf', 'failed:b.pdf']);
  });
  it('treats a re-uploaded file with the same name but new content as new', () => {
    const entries = mergeInbox([upload('a.pdf', 11)], [document('a.pdf', 10, 'done')]);
    expect(entries[0]?.kind).toBe('upload');
    expect(entries).toHaveLength(2);
  });
});
