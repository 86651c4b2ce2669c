/**
 * `bahi learn --memory DIR FILE CORRECTED.json`: remember what a person's correction of FILE says
 * about its issuer's paper. CORRECTED is an `extraction/v1` result holding the right values (what
 * the review screen sends back); its `documentType` says what FILE is.
 */
import { readFile } from 'node:fs/promises';
import { ExtractionResultSchema } from '@bahi/contracts/extraction';
import { createLazyOcr } from './cli.ts';
import { loadDocumentPages } from './extract.ts';
import { createFileMemoryStore } from './memory/file-store.ts';
import { issuerRole, learnFromCorrection, partyKey } from './memory/learn.ts';

const USAGE = 'usage: bahi learn --memory DIR FILE CORRECTED.json\n';

function fail(message: string): number {
  process.stderr.write(`bahi learn: ${message}\n`);
  return 1;
}

/** Entry point of `bahi learn`; returns the exit code (0 learned, 1 failed, 2 usage). */
export async function mainLearn(argv: string[]): Promise<number> {
  let dir: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--memory') dir = argv[++i];
    else if (a.startsWith('--memory=')) dir = a.slice('--memory='.length);
    else if (a.startsWith('-')) {
      process.stderr.write(`bahi learn: unknown option ${a}\n${USAGE}`);
      return 2;
    } else files.push(a);
  }
  if (!dir || files.length !== 2) {
    process.stderr.write(USAGE);
    return 2;
  }
  const [file, correctedFile] = files as [string, string];
  let corrected: ReturnType<typeof ExtractionResultSchema.parse>;
  try {
    corrected = ExtractionResultSchema.parse(JSON.parse(await readFile(correctedFile, 'utf8')));
  } catch (e) {
    return fail(`${correctedFile} is not an extraction/v1 result: ${(e as Error).message.split('\n')[0]}`);
  }
  const type = corrected.documentType;
  if (!type) return fail(`${correctedFile} does not say what the document is (documentType)`);
  const ocr = createLazyOcr();
  try {
    const pages = await loadDocumentPages(new Uint8Array(await readFile(file)), { ocr });
    const store = createFileMemoryStore(dir);
    const role = issuerRole(type);
    const key = partyKey(corrected.fields[`${role}Gstin`], corrected.fields[`${role}Name`]);
    if (!key) return fail(`the correction names no ${role} (GSTIN or name): nothing to remember it by`);
    const known = await store.recall(type, [key]);
    const memory = learnFromCorrection({
      pages,
      type,
      fields: corrected.fields,
      known,
      provenance: corrected.provenance,
      lineItems: corrected.lineItems,
    });
    if (!memory) return fail('nothing could be learned');
    await store.save(memory);
    process.stdout.write(
      `${JSON.stringify({ issuer: memory.key, recipes: Object.keys(memory.recipes), constants: Object.keys(memory.constants) })}\n`,
    );
    return 0;
  } catch (e) {
    return fail((e as Error).message);
  } finally {
    await ocr.close();
  }
}
