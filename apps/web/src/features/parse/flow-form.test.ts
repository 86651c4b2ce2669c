import { describe, expect, it } from 'vitest';
import {
  canSubmitFlow,
  createEmptyForm,
  decideGoogleStep,
  guessSourceKind,
  mapServerFieldErrors,
  needsGoogle,
  needsSheetCreation,
  offersSubfolders,
} from './flow-form.ts';

describe('canSubmitFlow', () => {
  const filled = {
    ...createEmptyForm(),
    name: 'Vendor invoices',
    types: ['INVOICE' as const],
    sheetName: 'Invoices',
  };

  it('needs a name, one type, an input and an output sheet name', () => {
    expect(canSubmitFlow(filled, false)).toBe(true);
    expect(canSubmitFlow({ ...filled, name: '   ' }, false)).toBe(false);
    expect(canSubmitFlow({ ...filled, types: [] }, false)).toBe(false);
    expect(canSubmitFlow({ ...filled, sheetName: '' }, false)).toBe(false);
  });
  it('needs a location for folder and Drive sources but not for uploads', () => {
    expect(canSubmitFlow({ ...filled, sourceKind: 'local' }, false)).toBe(false);
    expect(canSubmitFlow({ ...filled, sourceKind: 'local', sourceLocation: '/srv/invoices' }, false)).toBe(
      true,
    );
    expect(canSubmitFlow({ ...filled, sourceKind: 'drive', sourceLocation: ' ' }, false)).toBe(false);
  });
  it('needs a mail server and user for an e-mail source, but no location', () => {
    expect(canSubmitFlow({ ...filled, sourceKind: 'email' }, false)).toBe(false);
    expect(canSubmitFlow({ ...filled, sourceKind: 'email', mailHost: 'imap.example.in' }, false)).toBe(false);
    expect(
      canSubmitFlow(
        { ...filled, sourceKind: 'email', mailHost: 'imap.example.in', mailUser: 'ap@example.in' },
        false,
      ),
    ).toBe(true);
    expect(mapServerFieldErrors({ 'mail.password': 'Give the password', 'trigger.time': 'HH:MM' })).toEqual({
      mailPassword: 'Give the password',
      dailyTime: 'HH:MM',
    });
  });
  it('stays pressable for a value that is only too long, so Save can say why under the field', () => {
    expect(canSubmitFlow({ ...filled, name: 'x'.repeat(201) }, false)).toBe(true);
    expect(canSubmitFlow({ ...filled, name: 'x'.repeat(201), types: [] }, false)).toBe(false);
    expect(canSubmitFlow({ ...filled, types: ['PO', 'GRN'] }, false)).toBe(false);
  });
  it('is disabled while saving', () => {
    expect(canSubmitFlow(filled, true)).toBe(false);
  });
});

describe('mapServerFieldErrors', () => {
  it('puts source errors under the location box', () => {
    expect(
      mapServerFieldErrors({
        'io.input.url': 'Invalid Google Drive URL. Provide a folder or file link.',
        name: 'Name is required',
        'io.output.sheetName': 'Sheet name is required',
      }),
    ).toEqual({
      sourceLocation: 'Invalid Google Drive URL. Provide a folder or file link.',
      name: 'Name is required',
      sheetName: 'Sheet name is required',
    });
  });
});

describe('guessSourceKind', () => {
  it('recognises Drive links and absolute paths', () => {
    expect(guessSourceKind('https://drive.google.com/drive/folders/abc')).toBe('drive');
    expect(guessSourceKind('/srv/bahi/inbox')).toBe('local');
    expect(guessSourceKind('invoices')).toBe(null);
  });
});

describe('the Google step before saving', () => {
  const base = { ...createEmptyForm(), name: 'Drive invoices', types: ['INVOICE' as const], sheetName: 'S' };
  const sheets = { ...base, outputKind: 'sheets' as const };
  const drive = {
    ...base,
    sourceKind: 'drive' as const,
    sourceLocation: 'https://drive.google.com/drive/folders/1Ab',
  };
  const disconnected = { configured: true, connected: false, missingScopes: [] };
  const connected = { configured: true, connected: true, missingScopes: [] };

  it('needs Google for a Sheets output or a Drive link, not for local ones or a non-Drive link', () => {
    expect(needsGoogle(base)).toBe(false);
    expect(needsGoogle(sheets)).toBe(true);
    expect(needsGoogle(drive)).toBe(true);
    expect(needsGoogle({ ...drive, sourceLocation: 'https://example.com/not-drive' })).toBe(false);
  });
  it('asks to authorise when Google is configured but not connected or missing scopes', () => {
    expect(decideGoogleStep(sheets, disconnected)).toBe('authorize');
    expect(decideGoogleStep(drive, disconnected)).toBe('authorize');
    expect(decideGoogleStep(sheets, { ...connected, missingScopes: ['drive.readonly'] })).toBe('authorize');
    expect(decideGoogleStep(sheets, connected)).toBe('proceed');
    expect(decideGoogleStep(base, disconnected)).toBe('proceed');
  });
  it('leaves an unconfigured server or an unknown status to the server', () => {
    expect(decideGoogleStep(sheets, { configured: false, connected: false, missingScopes: [] })).toBe(
      'proceed',
    );
    expect(decideGoogleStep(drive, undefined)).toBe('proceed');
  });
  it('creates the spreadsheet only for a Sheets flow without one', () => {
    expect(needsSheetCreation({ io: { output: { kind: 'sheets', sheetId: '' } } })).toBe(true);
    expect(needsSheetCreation({ io: { output: { kind: 'sheets', sheetId: '1Sp' } } })).toBe(false);
    expect(needsSheetCreation({ io: { output: { kind: 'xlsx', sheetId: '' } } })).toBe(false);
  });
});

describe('offersSubfolders', () => {
  it('offers "Include sub-folders" for Google Drive folder links only', () => {
    const drive = { sourceKind: 'drive' as const };
    expect(
      offersSubfolders({ ...drive, sourceLocation: 'https://drive.google.com/drive/folders/1AbCdEfGhIjK' }),
    ).toBe(true);
    expect(
      offersSubfolders({
        ...drive,
        sourceLocation: ' https://drive.google.com/drive/u/0/folders/1AbCdEfGhIjK?usp=sharing ',
      }),
    ).toBe(true);
    expect(
      offersSubfolders({ ...drive, sourceLocation: 'https://drive.google.com/file/d/1AbCdEfGhIjK/view' }),
    ).toBe(false);
    expect(
      offersSubfolders({ ...drive, sourceLocation: 'https://evil.example/drive/folders/1AbCdEfGhIjK' }),
    ).toBe(false);
    expect(
      offersSubfolders({ ...drive, sourceLocation: 'http://drive.google.com/drive/folders/1AbCdEfGhIjK' }),
    ).toBe(false);
    expect(offersSubfolders({ ...drive, sourceLocation: '' })).toBe(false);
    expect(
      offersSubfolders({
        sourceKind: 'local',
        sourceLocation: 'https://drive.google.com/drive/folders/1AbCdEfGhIjK',
      }),
    ).toBe(false);
  });
});
