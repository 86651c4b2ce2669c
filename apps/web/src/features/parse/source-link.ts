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
    case 'skipped':
      return { label: 'Skipped', tone: 'failed' };
    default:
      return { label: 'New', tone: 'new' };
  }
}

const CHECK_WORDS: Record<string, string> = {
  gstin_format: 'A GSTIN is not in the right format',
  gstin_checksum: "A GSTIN's check digit is wrong — likely a typo",
  state_code_matches_gstin: "The state code doesn't match the GSTIN",
  tax_type_matches_place_of_supply: "CGST+SGST vs IGST doesn't fit the place of supply",
  lines_sum_to_taxable_value: "Line amounts don't add up to the taxable value",
  taxes_sum_to_total: "Taxable value plus taxes doesn't equal the total",
  amount_in_words_matches_total: 'The amount in words differs from the total',
  qr_matches_printed: 'The e-invoice QR differs from the printed details',
  grn_quantities_balance: "Accepted plus rejected quantities don't equal the received quantity",
};

/**
 * A failed check in plain words for a reviewer. Accepts a bare code or `code:field`; unknown codes
 * are shown with spaces so nothing is hidden.
 */
export function describeCheck(check: string): string {
  const [code = '', field] = check.split(':');
  const words = CHECK_WORDS[code] ?? code.replaceAll('_', ' ');
  return field ? `${words} (${field})` : words;
}
