/**
 * Whether a line's value is one a field learned absent clears: a value the rules derived there (no
 * place on the page: a document rate spread over the lines), or a zero in a column printed zero on
 * every line (a "0.00" discount column the issuer's corrections empty). A figure read from a cell,
 * and the zeros beside a real figure, are on the paper and stay.
 */
export function clearsAsAbsent(
  lines: ReadonlyArray<Record<string, unknown>>,
  line: Record<string, unknown>,
  name: string,
): boolean {
  const value = line[name];
  if (value === null || value === undefined) return false;
  const printed = (line.provenance as Record<string, unknown> | undefined)?.[name];
  if (!printed) return true;
  return value === 0 && lines.every((l) => l[name] === 0 || l[name] === null || l[name] === undefined);
}
