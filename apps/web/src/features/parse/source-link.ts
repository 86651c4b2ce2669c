import type { SourceKind } from './flow-form.ts';

/** How a flow card shows its input: a label and what clicking it does. */
export type SourceLink =
  | { kind: 'upload'; label: string }
  | { kind: 'local'; label: string; path: string }
  | { kind: 'drive'; label: string; href: string };

/**
 * Describes a flow's input for its card: uploads open the flow's inbox panel, a local folder shows
 * its path, a Drive link opens in a new tab (only http(s) links — never a `javascript:` URL).
 */
export function describeSource(input: {
  kind: SourceKind;
  url: string;
  folderName?: string | undefined;
}): SourceLink {
  if (input.kind === 'upload') return { kind: 'upload', label: 'Upload inbox' };
  if (input.kind === 'local') return { kind: 'local', label: input.url || 'Local folder', path: input.url };
  const safe = /^https:\/\//i.test(input.url) ? input.url : '';
  const label = input.folderName?.trim() || 'Google Drive';
  return safe
    ? { kind: 'drive', label, href: safe }
    : { kind: 'local', label: input.url || label, path: input.url };
}

/** Status words shown for an inbox document. */
export function formatDocumentStatus(status: string): {
  label: string;
  tone: 'new' | 'working' | 'done' | 'review' | 'failed';
} {
  switch (status) {
    case 'done':
      return { label: 'Done', tone: 'done' };
    case 'failed':
      return { label: 'Failed', tone: 'failed' };
    case 'needs_review':
      return { label: 'Needs review', tone: 'review' };
    case 'processing':
      return { label: 'Processing', tone: 'working' };
    case 'removed':
      return { label: 'Removed', tone: 'failed' };
    case 'skipped':
      return { label: 'Skipped', tone: 'failed' };
    default:
      return { label: 'New', tone: 'new' };
  }
}

/** Why a document needs review, in plain words (a failed check, a missing field, low confidence, a duplicate). */
export { describeReviewReason as describeCheck } from '@bahi/contracts';
