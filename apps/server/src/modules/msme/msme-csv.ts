import { parseIndianDate } from '@bahi/india';

/**
 * Reading a bank statement CSV of payments to suppliers: one header row, then one payment a row. Columns
 * are found by their heading (Date / Value date, Amount / Debit / Withdrawal, Reference / UTR / Cheque
 * no., GSTIN or PAN of the supplier, and optionally Invoice no. and Reason for delay). Every bad row gets
 * its own message in words; nothing is read past what a row says.
 */

/** One row as read, before the vendor is looked up. */
export interface StatementRow {
  line: number;
  date: string;
  amountPaise: number;
  reference: string;
  gstin: string | null;
  pan: string | null;
  invoiceNumber: string | null;
  delayReason: string | null;
}

/** Splits CSV text into rows of cells (RFC 4180 quoting; commas or semicolons). */
export function splitCsv(text: string): string[][] {
  const rows: string[][] = [];
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0] ?? '';
  const sep = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

const HEADINGS: Record<keyof Omit<StatementRow, 'line' | 'amountPaise'> | 'amount', string[]> = {
  date: ['date', 'value date', 'txn date', 'transaction date', 'payment date'],
  amount: ['amount', 'debit', 'debit amount', 'withdrawal', 'withdrawal amount', 'amount paid'],
  reference: ['reference', 'ref', 'ref no', 'reference no', 'utr', 'utr no', 'cheque no', 'chq ref no'],
  gstin: ['gstin', 'vendor gstin', 'supplier gstin'],
  pan: ['pan', 'vendor pan', 'supplier pan'],
  invoiceNumber: ['invoice', 'invoice no', 'invoice number', 'bill no'],
  delayReason: ['reason for delay', 'delay reason'],
};

const heading = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Amount text to paise: 1,25,000.50 or ₹ 1250; null when it is not a positive amount. */
export function parseAmountPaise(text: string): number | null {
  const clean = text.replace(/[₹,\s]/g, '').replace(/^INR/i, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  const paise = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return paise > 0 && Number.isSafeInteger(paise) ? paise : null;
}

/** The statement's rows, and a message per bad row ("Row 4: …", counting the header as row 1). */
export function readStatement(text: string): { rows: StatementRow[]; errors: string[] } {
  const [header, ...lines] = splitCsv(text);
  const names = (header ?? []).map(heading);
  const at = (key: keyof typeof HEADINGS) => names.findIndex((n) => HEADINGS[key].includes(n));
  const cols = Object.fromEntries(Object.keys(HEADINGS).map((k) => [k, at(k as keyof typeof HEADINGS)]));
  const missing = [
    cols.date! < 0 ? 'Date' : null,
    cols.amount! < 0 ? 'Amount' : null,
    cols.reference! < 0 ? 'Reference' : null,
    cols.gstin! < 0 && cols.pan! < 0 ? 'GSTIN or PAN' : null,
  ].filter((m) => m !== null);
  if (missing.length > 0)
    return {
      rows: [],
      errors: [
        `The first row must name the columns; missing: ${missing.join(', ')}. Expected headings such as Date, Amount, Reference, GSTIN (or PAN), Invoice No.`,
      ],
    };
  const rows: StatementRow[] = [];
  const errors: string[] = [];
  lines.forEach((cells, i) => {
    const line = i + 2;
    if (cells.every((c) => c.trim() === '')) return;
    const cell = (key: string) => (cols[key]! >= 0 ? (cells[cols[key]!] ?? '').trim() : '');
    const problems: string[] = [];
    const date = parseIndianDate(cell('date'));
    if (!date) problems.push(`the date "${cell('date')}" is not a date (write it as DD/MM/YYYY)`);
    const amountPaise = parseAmountPaise(cell('amount'));
    if (amountPaise === null)
      problems.push(`the amount "${cell('amount')}" is not an amount paid (digits, at most two decimals)`);
    if (!cell('reference')) problems.push('the reference (UTR or cheque number) is empty');
    if (!cell('gstin') && !cell('pan')) problems.push("the supplier's GSTIN or PAN is empty");
    if (problems.length > 0) {
      errors.push(`Row ${line}: ${problems.join('; ')}`);
      return;
    }
    rows.push({
      line,
      date: date!,
      amountPaise: amountPaise!,
      reference: cell('reference').slice(0, 100),
      gstin: cell('gstin').toUpperCase() || null,
      pan: cell('pan').toUpperCase() || null,
      invoiceNumber: cell('invoiceNumber') || null,
      delayReason: cell('delayReason').slice(0, 300) || null,
    });
  });
  if (rows.length === 0 && errors.length === 0)
    errors.push('The statement has no payment rows under its headings');
  return { rows, errors };
}
