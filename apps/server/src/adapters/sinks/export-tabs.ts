import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SheetColumn } from '@bahi/contracts';
import type { SheetRow } from './sink.ts';
import { type WorkbookTab, writeTabsFile } from './xlsx-workbook.ts';

/**
 * What the downloadable workbooks (reconciliation, GST, MSME) share: their column declarations, the
 * defusing of text against formulas, and the temporary file they are written to.
 */

/** A column of an export tab (text unless said). */
export const col = (key: string, label: string, kind: SheetColumn['kind'] = 'text'): SheetColumn => ({
  key,
  label,
  kind,
});

/**
 * Text that a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) gets a
 * leading apostrophe: a supplier name or invoice number from a document is data, never a formula.
 */
export function defuse(value: SheetRow[string]): SheetRow[string] {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** {@link defuse} on every cell of a row. */
export const defuseRow = (row: SheetRow): SheetRow =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, defuse(v)]));

/**
 * Writes the tabs to a fresh file under `<dataDir>/tmp` (`<prefix>-<random>.xlsx`) and returns its path:
 * the caller streams it and deletes it.
 */
export async function writeTempWorkbook(
  dataDir: string,
  prefix: string,
  tabs: WorkbookTab[],
): Promise<string> {
  const path = join(dataDir, 'tmp', `${prefix}-${randomBytes(8).toString('hex')}.xlsx`);
  await writeTabsFile(path, tabs);
  return path;
}
