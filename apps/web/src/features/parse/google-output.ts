import { flowMessages } from '@bahi/contracts';
import type { OutputKind } from './flow-form.ts';

/** How a flow card links its output: the in-app sheet view always, and the Google spreadsheet when there is one. */
export interface OutputLink {
  label: string;
  /** The spreadsheet on Google, opened in a new tab; null for workbooks and for a sheet not created yet. */
  googleHref: string | null;
}

/** Google spreadsheet ids are URL-safe base64-ish; anything else is not put into a link. */
const SPREADSHEET_ID_RE = /^[A-Za-z0-9_-]{10,200}$/;

/** Link of a Google spreadsheet by id. */
export function getGoogleSheetUrl(sheetId: string): string {
  return `https://docs.google.com/spreadsheets/d/${encodeURIComponent(sheetId)}/edit`;
}

/** Describes a flow's output for its card. */
export function describeOutput(output: { kind: OutputKind; sheetId: string; sheetName: string }): OutputLink {
  const label = output.sheetName.trim() || (output.kind === 'sheets' ? 'Google sheet' : 'Output sheet');
  const googleHref =
    output.kind === 'sheets' && SPREADSHEET_ID_RE.test(output.sheetId)
      ? getGoogleSheetUrl(output.sheetId)
      : null;
  return { label, googleHref };
}

/**
 * True when a run (or starting one) failed because Google is not, or no longer, authorised: the server's
 * `google_auth_required` code, or its message inside a wrapped error (a sheet write that lost its grant).
 */
export function isRunAuthFailure(error: { code: string; message: string } | null | undefined): boolean {
  if (!error) return false;
  return error.code === 'google_auth_required' || error.message.includes(flowMessages.googleAuthRequired);
}
