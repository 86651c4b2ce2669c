import { describe, expect, it } from 'vitest';
import { getSheetViewPath, SHEET_PATH, sheetPathFromParseQuery } from './sheet-path.ts';

describe("a flow's sheet route", () => {
  const id = '6f1c2b9e-0d4a-4f7e-9b1a-3c5d7e9f1a2b';

  it('is /flows/<id>/sheet, with ?tab=lines for the line items', () => {
    expect(getSheetViewPath(id)).toBe(`/flows/${id}/sheet`);
    expect(getSheetViewPath(id, 'lines')).toBe(`/flows/${id}/sheet?tab=lines`);
    expect(SHEET_PATH.test(getSheetViewPath(id))).toBe(true);
    expect(SHEET_PATH.test(`/flows/${id}/documents/x`)).toBe(false);
  });

  it('takes the place of /parse?sheet=<id>, keeping the tab and a mailbox sign-in marker', () => {
    expect(sheetPathFromParseQuery(new URLSearchParams(`sheet=${id}`))).toBe(`/flows/${id}/sheet`);
    expect(sheetPathFromParseQuery(new URLSearchParams(`sheet=${id}&tab=lines`))).toBe(
      `/flows/${id}/sheet?tab=lines`,
    );
    expect(sheetPathFromParseQuery(new URLSearchParams(`sheet=${id}&mailOAuth=connected`))).toBe(
      `/flows/${id}/sheet?mailOAuth=connected`,
    );
    expect(sheetPathFromParseQuery(new URLSearchParams(`sheet=${id}&tab=lines&mailOAuth=connected`))).toBe(
      `/flows/${id}/sheet?tab=lines&mailOAuth=connected`,
    );
  });

  it('is no sheet when the query names none', () => {
    expect(sheetPathFromParseQuery(new URLSearchParams('create=1'))).toBe(null);
    expect(sheetPathFromParseQuery(new URLSearchParams('sheet='))).toBe(null);
  });
});
