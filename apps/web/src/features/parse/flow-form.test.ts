import { describe, expect, it } from 'vitest';
import { canSubmitFlow, createEmptyForm, guessSourceKind, mapServerFieldErrors } from './flow-form.ts';

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
