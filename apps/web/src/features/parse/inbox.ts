import type { FlowDocument, UploadResult } from '@bahi/contracts';

/** One stored upload as `GET /api/flows/:id/uploads` lists it. */
export type UploadedFile = UploadResult['stored'][number];

/** One inbox line: a document the flow has read, or an upload it has not read yet ("New"). */
export type InboxEntry =
  | { kind: 'document'; document: FlowDocument }
  | { kind: 'upload'; upload: UploadedFile };

/**
 * The inbox of an upload flow: every document the flow has seen, plus uploads no run has taken yet
 * (matched by file name and size, the fields both lists carry). New uploads come first — they are
 * what the user just dropped and what the next run will read.
 */
export function mergeInbox(
  uploads: readonly UploadedFile[],
  documents: readonly FlowDocument[],
): InboxEntry[] {
  const seen = new Set(documents.map((d) => `${d.fileName}\u0000${d.size ?? ''}`));
  const fresh = uploads
    .filter((u) => !seen.has(`${u.fileName}\u0000${u.size}`))
    .map((upload): InboxEntry => ({ kind: 'upload', upload }));
  return [...fresh, ...documents.map((document): InboxEntry => ({ kind: 'document', document }))];
}
