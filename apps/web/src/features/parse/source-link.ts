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
  // A mailbox: its folder is shown like a server folder's path (no link to follow).
  if (input.kind === 'email')
    return { kind: 'local', label: `E-mail · ${input.folderName || 'INBOX'}`, path: input.folderName ?? '' };
  if (input.kind === 'local') return { kind: 'local', label: input.url || 'Local folder', path: input.url };
  const safe = /^https:\/\//i.test(input.url) ? input.url : '';
  const label = input.folderName?.trim() || 'Google Drive';
  return safe
    ? { kind: 'drive', label, href: safe }
    : { kind: 'local', label: input.url || label, path: input.url };
}

/** Why a document needs review, in plain words (a failed check, a missing field, low confidence, a duplicate). */
export { describeReviewReason as describeCheck } from '@bahi/contracts';
