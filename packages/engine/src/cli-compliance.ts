import { readFile } from 'node:fs/promises';
import {
  type BookInvoice,
  computeTds,
  DEFAULT_GSTR2B_TOLERANCE,
  exportTally,
  gstr2bPeriod,
  type LedgerNames,
  matchGstr2b,
  parseLedgerNames,
  parseVendorProfiles,
  readBookInvoice,
  readGstr2bFiles,
  type VendorProfile,
} from '@bahi/compliance';
import { readExtractionResults } from './cli-books.ts';

/** The three commands of contracts/compliance.md. */
export type ComplianceCommand = 'gstr2b' | 'tds' | 'tally';

const USAGE: Record<ComplianceCommand, string> = {
  gstr2b: 'usage: bahi gstr2b --2b FILE.json [--2b FILE.json ...] [--tolerance-amount RUPEES] BOOKS...\n',
  tds: 'usage: bahi tds [--vendors FILE.json] [--buyer-turnover-above-10cr] BOOKS...\n',
  tally: 'usage: bahi tally [--ledgers FILE.json] BOOKS... > vouchers.xml\n',
};

/** Parsed command line of one compliance command; files are read later. */
export interface ComplianceArgs {
  command: ComplianceCommand;
  books: string[];
  gstr2b: string[];
  toleranceRupees: number;
  vendors: string | null;
  buyerTurnoverAbove10cr: boolean;
  ledgers: string | null;
}

const OPTIONS: Record<ComplianceCommand, string[]> = {
  gstr2b: ['--2b', '--tolerance-amount'],
  tds: ['--vendors', '--buyer-turnover-above-10cr'],
  tally: ['--ledgers'],
};

/** Parse the arguments of `bahi gstr2b|tds|tally`; returns an error message for a usage error. */
export function parseComplianceArgs(command: ComplianceCommand, argv: string[]): ComplianceArgs | string {
  const out: ComplianceArgs = {
    command,
    books: [],
    gstr2b: [],
    toleranceRupees: DEFAULT_GSTR2B_TOLERANCE,
    vendors: null,
    buyerTurnoverAbove10cr: false,
    ledgers: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.books.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      out.books.push(a);
      continue;
    }
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (!OPTIONS[command].includes(name)) return `unknown option ${a}`;
    if (name === '--buyer-turnover-above-10cr') {
      if (a.includes('=')) return `${name} takes no value`;
      out.buyerTurnoverAbove10cr = true;
      continue;
    }
    const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
    if (value === undefined || value === '') return `${name} needs a value`;
    if (name === '--2b') out.gstr2b.push(value);
    else if (name === '--vendors') out.vendors = value;
    else if (name === '--ledgers') out.ledgers = value;
    else {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0)
        return `${name} needs a number of rupees of at least 0 (got ${value})`;
      out.toleranceRupees = n;
    }
  }
  if (command === 'gstr2b' && out.gstr2b.length === 0) return 'missing --2b FILE.json';
  if (!out.books.length) return 'missing BOOKS argument';
  return out;
}

/** A JSON option file, or a usage message. */
async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${what} ${path} could not be read: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} ${path} is not JSON`);
  }
}

class UsageError extends Error {}

/** The book invoices among the files' results; unreadable documents and other document types go to stderr. */
async function readBooks(
  files: string[],
  warn: (line: string) => void,
  command: string,
): Promise<BookInvoice[]> {
  const books: BookInvoice[] = [];
  for (const doc of await readExtractionResults(files)) {
    if (doc.error) {
      warn(`bahi ${command}: ${doc.file} could not be read: ${doc.error.message}\n`);
      continue;
    }
    if (doc.documentType && doc.documentType !== 'invoice') {
      warn(`bahi ${command}: ${doc.file} is a ${doc.documentType}, not an invoice: left out\n`);
      continue;
    }
    books.push(readBookInvoice({ ...doc, file: doc.file ?? '' }));
  }
  return books;
}

/** Option files, each checked (a usage error when one is wrong). */
async function readOptions(args: ComplianceArgs) {
  const twoB: unknown[] = [];
  for (const path of args.gstr2b) {
    const json = await readJson(path, 'GSTR-2B file');
    if (!gstr2bPeriod(json))
      throw new UsageError(`GSTR-2B file ${path} has no return period (data.rtnprd MMYYYY)`);
    twoB.push(json);
  }
  let vendors: VendorProfile[] = [];
  if (args.vendors) {
    const v = parseVendorProfiles(await readJson(args.vendors, 'vendor profiles'));
    if (typeof v === 'string') throw new UsageError(`${args.vendors}: ${v}`);
    vendors = v;
  }
  let ledgers: LedgerNames | undefined;
  if (args.ledgers) {
    const l = parseLedgerNames(await readJson(args.ledgers, 'ledger names'));
    if (typeof l === 'string') throw new UsageError(`${args.ledgers}: ${l}`);
    ledgers = l;
  }
  return { twoB, vendors, ledgers };
}

/**
 * Run one compliance command (contracts/compliance.md): NDJSON (gstr2b, tds) or Tally XML on
 * `write`, reports on `warn`. Returns the exit code: 0 done, 2 usage error (an option file that
 * cannot be read or has the wrong shape).
 */
export async function runCompliance(
  args: ComplianceArgs,
  write: (text: string) => void,
  warn: (line: string) => void,
): Promise<number> {
  let options: Awaited<ReturnType<typeof readOptions>>;
  try {
    options = await readOptions(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    warn(`bahi ${args.command}: ${e.message}\n${USAGE[args.command]}`);
    return 2;
  }
  const books = await readBooks(args.books, warn, args.command);
  if (args.command === 'gstr2b') {
    const docs = readGstr2bFiles(options.twoB);
    for (const row of matchGstr2b(books, docs, { toleranceRupees: args.toleranceRupees }))
      write(`${JSON.stringify(row)}\n`);
  } else if (args.command === 'tds') {
    const results = computeTds(books, {
      vendors: options.vendors,
      buyerTurnoverAbove10cr: args.buyerTurnoverAbove10cr,
    });
    for (const row of results) write(`${JSON.stringify(row)}\n`);
  } else {
    const out = exportTally(books, options.ledgers);
    for (const s of out.skipped)
      warn(`bahi tally: ${s.file} (${s.documentNumber ?? 'no number'}) not written: ${s.reason}\n`);
    write(out.xml);
  }
  return 0;
}

/** Entry point of `bahi gstr2b|tds|tally`; returns the exit code (0 done, 2 usage error). */
export async function mainCompliance(command: ComplianceCommand, argv: string[]): Promise<number> {
  const args = parseComplianceArgs(command, argv);
  if (typeof args === 'string') {
    process.stderr.write(`bahi ${command}: ${args}\n${USAGE[command]}`);
    return 2;
  }
  return runCompliance(
    args,
    (text) => process.stdout.write(text),
    (line) => process.stderr.write(line),
  );
}
