import { describe, expect, it } from 'vitest';
import { describeOutput, getGoogleSheetUrl, isRunAuthFailure } from './google-output.ts';

describe('describeOutput', () => {
  it('links a Google output to its spreadsheet', () => {
    const id = '1AbCdEfGhIjKlMnOp_q-r';
    expect(describeOutput({ kind: 'sheets', sheetId: id, sheetName: 'Invoices' })).toEqual({
      label: 'Invoices',
      googleHref: `https://docs.google.com/spreadsheets/d/${id}/edit`,
    });
  });
  it('has no Google link for workbooks, sheets not created yet, or odd ids', () => {
    expect(describeOutput({ kind: 'xlsx', sheetId: 'abcdefghijklmnop', sheetName: '' })).toEqual({
      label: 'Output sheet',
      googleHref: null,
    });
    expect(describeOutput({ kind: 'sheets', sheetId: '', sheetName: ' ' })).toEqual({
      label: 'Google sheet',
      googleHref: null,
    });
    expect(describeOutput({ kind: 'sheets', sheetId: '../../evil?x=1', sheetName: 'S' }).googleHref).toBe(
      null,
    );
  });
  it('escapes the id in the URL', () => {
    expect(getGoogleSheetUrl('a b')).toBe('https://docs.google.com/spreadsheets/d/a%20b/edit');
  });
});

describe('isRunAuthFailure', () => {
  it('recognises the code and the wrapped message', () => {
    expect(isRunAuthFailure({ code: 'google_auth_required', message: 'x' })).toBe(true);
    expect(
      isRunAuthFailure({
        code: 'sheet_write_failed',
        message:
          'The rows could not be written to the Google sheet: Google authorization required. Please authorize access to your Google account.',
      }),
    ).toBe(true);
  });
  it('ignores other failures', () => {
    expect(isRunAuthFailure(null)).toBe(false);
    expect(isRunAuthFailure({ code: 'internal', message: 'Disk full' })).toBe(false);
  });
});
