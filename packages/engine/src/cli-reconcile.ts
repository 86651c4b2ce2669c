import { DEFAULT_TOLERANCES, type MatchDocument, reconcileDocuments, type Tolerances } from '@bahi/reconcile';
import { readExtractionResults } from './cli-books.ts';

const USAGE =
  'usage: bahi reconcile [--tolerance-qty PCT] [--tolerance-price PCT] [--tolerance-amount RUPEES] FILE...\n';

/** Parsed command line of `bahi reconcile`. */
interface ReconcileArgs {
  tolerances: Tolerances;
  files: string[];
}

/** Parse `reconcile` arguments; returns an error message for a usage error. */
export function parseReconcileArgs(argv: string[]): ReconcileArgs | string {
  const out: ReconcileArgs = { tolerances: { ...DEFAULT_TOLERANCES }, files: [] };
  const options = {
    '--tolerance-qty': 'qtyPct',
    '--tolerance-price': 'pricePct',
    '--tolerance-amount': 'amountRupees',
  } as const;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = Object.keys(options).find((o) => a === o || a.startsWith(`${o}=`)) as
      | keyof typeof options
      | undefined;
    if (name) {
      const raw = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      const value = Number(raw);
      if (raw === undefined || !Number.isFinite(value) || value < 0)
        return `${name} needs a number of at least 0 (got ${raw ?? 'nothing'})`;
      out.tolerances[options[name]] = value;
    } else if (a === '--') {
      out.files.push(...argv.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else out.files.push(a);
  }
  if (!out.files.length) return 'missing FILE argument';
  return out;
}

/**
 * `bahi reconcile FILE...` (contracts/reconciliation.md): documents are extracted (their type
 * classified), `.ndjson` files of extraction/v1 results are read as they are; any mix, any order.
 * Prints one line per invoice, then per purchase order. Unreadable documents go to stderr.
 */
export async function runReconcile(
  args: ReconcileArgs,
  write: (line: string) => void,
  warn: (line: string) => void,
): Promise<void> {
  // Error results keep their file name for the report below; the match skips them.
  const documents = (await readExtractionResults(args.files)) as unknown as MatchDocument[];
  for (const doc of documents) {
    if (doc.error) warn(`bahi reconcile: ${doc.file} could not be read: ${JSON.stringify(doc.error)}\n`);
  }
  for (const result of reconcileDocuments(documents, args.tolerances)) write(`${JSON.stringify(result)}\n`);
}

/** Entry point of `bahi reconcile`; returns the exit code (0 done, 2 usage error). */
export async function mainReconcile(argv: string[]): Promise<number> {
  const args = parseReconcileArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`bahi reconcile: ${args}\n${USAGE}`);
    return 2;
  }
  await runReconcile(
    args,
    (line) => process.stdout.write(line),
    (line) => process.stderr.write(line),
  );
  return 0;
}
