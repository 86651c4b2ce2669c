import { collapseSpaces } from './numbers.ts';

/** "HSN: 6506", "HSN/SAC - 998314", "SAC Code: 9983" printed inside an item's description cell. */
const LABELLED_HSN =
  /(?:^|\s)\(?(?:hsn(?:\s*\/\s*sac)?|sac)(?:\s*code)?\s*[:\-#.]?\s*(\d{4,8})\)?(?=\s|$|[,;])/i;

/**
 * An HSN or SAC code printed with its label inside the description cell (marketplace prints put
 * "HSN:6506" under the item name) is the line's code, not part of its description: it fills the
 * HSN/SAC and leaves the description. It wins over a shorter number read in the HSN column, which
 * is then a description word that ran on under it ("7.5 kW, 1450 RPM"). Returns how many lines
 * changed.
 */
export function takeLabelledHsn(lines: Array<Record<string, string | number | null>>): number {
  let changed = 0;
  for (const line of lines) {
    const d = line.description;
    if (typeof d !== 'string' || !('hsnSac' in line)) continue;
    const m = LABELLED_HSN.exec(d);
    if (!m?.[1]) continue;
    // A column code as long as the labelled one is a second code the document prints: no telling.
    if (typeof line.hsnSac === 'string' && line.hsnSac !== m[1] && line.hsnSac.length >= m[1].length)
      continue;
    line.hsnSac = m[1];
    const rest = collapseSpaces(`${d.slice(0, m.index)} ${d.slice(m.index + m[0].length)}`);
    line.description = rest || null;
    changed++;
  }
  return changed;
}
