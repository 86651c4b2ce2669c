import type { Run, Workflow } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { createEmptyForm } from './flow-form.ts';
import { getSheetDownloadUrl, toFlowBody, toFormValues, toProgressView } from './flows-api.ts';

const flow: Workflow = {
  id: 'f1',
  uid: 'u1',
  name: 'Invoices',
  types: ['INVOICE'],
  io: {
    input: { kind: 'drive', url: 'https://drive.google.com/drive/folders/abc', folderName: 'AP inbox' },
    output: { kind: 'xlsx', sheetId: 'wb1', sheetName: 'Invoices FY26' },
  },
  status: 'success',
  createdAt: 1,
  updatedAt: 2,
  lastRunAt: null,
};

describe('toFlowBody', () => {
  it('sends an upload flow with an empty location and a new xlsx output', () => {
    const body = toFlowBody({ ...createEmptyForm(), name: ' AP ', types: ['PO'], sheetName: ' POs ' });
    expect(body).toEqual({
      name: 'AP',
      types: ['PO'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'POs' },
      },
      trigger: { kind: 'manual' },
    });
  });
  it('keeps the stored workbook id and folder name when editing without changing the input', () => {
    const body = toFlowBody({ ...toFormValues(flow), name: 'Renamed' }, flow);
    expect(body.io.output.sheetId).toBe('wb1');
    expect(body.io.input.folderName).toBe('AP inbox');
    const moved = toFlowBody(
      { ...toFormValues(flow), sourceLocation: 'https://drive.google.com/drive/folders/xyz' },
      flow,
    );
    expect(moved.io.input.folderName).toBe('');
  });
  it('sends the chosen output kind and drops a sheet id that belonged to the other kind', () => {
    const toSheets = toFlowBody({ ...toFormValues(flow), outputKind: 'sheets' }, flow);
    expect(toSheets.io.output).toEqual({ kind: 'sheets', sheetId: '', sheetName: flow.io.output.sheetName });
    const google = {
      ...flow,
      io: { ...flow.io, output: { kind: 'sheets' as const, sheetId: '1Sp', sheetName: 'S' } },
    };
    expect(toFormValues(google).outputKind).toBe('sheets');
    expect(toFlowBody({ ...toFormValues(google), name: 'Renamed' }, google).io.output.sheetId).toBe('1Sp');
    expect(toFlowBody({ ...toFormValues(google), outputKind: 'xlsx' }, google).io.output).toEqual({
      kind: 'xlsx',
      sheetId: '',
      sheetName: 'S',
    });
  });
});

describe('include sub-folders', () => {
  const folder = 'https://drive.google.com/drive/folders/1AbCdEfGhIjK';
  it('is sent for a Drive folder link when ticked, and read back when editing', () => {
    const values = { ...toFormValues(flow), sourceLocation: folder, includeSubfolders: true };
    const body = toFlowBody(values, flow);
    expect(body.io.input).toEqual({ kind: 'drive', url: folder, folderName: '', includeSubfolders: true });
    const saved = { ...flow, io: { ...flow.io, input: body.io.input as Workflow['io']['input'] } };
    expect(toFormValues(saved).includeSubfolders).toBe(true);
    // Flows saved before the option read as off.
    expect(toFormValues(flow).includeSubfolders).toBe(false);
  });
  it('is not sent when unticked, for a file link, or for another input kind', () => {
    const drive = { ...toFormValues(flow), sourceLocation: folder };
    expect(toFlowBody({ ...drive, includeSubfolders: false }).io.input).not.toHaveProperty(
      'includeSubfolders',
    );
    const file = {
      ...drive,
      sourceLocation: 'https://drive.google.com/file/d/1AbCdEfGhIjK/view',
      includeSubfolders: true,
    };
    expect(toFlowBody(file).io.input).not.toHaveProperty('includeSubfolders');
    const local = {
      ...drive,
      sourceKind: 'local' as const,
      sourceLocation: '/srv/inbox',
      includeSubfolders: true,
    };
    expect(toFlowBody(local).io.input).not.toHaveProperty('includeSubfolders');
  });
});

describe('toProgressView', () => {
  it('counts every finished document, whatever its outcome', () => {
    const run = {
      counts: { total: 5, done: 2, needsReview: 1, failed: 1, skipped: 0, alreadyProcessed: 3 },
      currentFile: 'x.pdf',
    } as Run;
    expect(toProgressView(run)).toEqual({
      done: 4,
      total: 5,
      failed: 1,
      needsReview: 1,
      currentFile: 'x.pdf',
    });
  });
});

describe('getSheetDownloadUrl', () => {
  it('adds the tab to csv downloads only', () => {
    expect(getSheetDownloadUrl('f 1', 'xlsx', 'lines')).toBe('/api/flows/f%201/sheet.xlsx');
    expect(getSheetDownloadUrl('f1', 'csv', 'lines')).toBe('/api/flows/f1/sheet.csv?tab=lines');
  });
});
