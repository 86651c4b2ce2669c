import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { runExtract } from './cli.ts';
import { DEFAULT_LIMITS } from './extract.ts';
import { buildErrorResult, type ExtractionResult } from './result.ts';

/**
 * Extraction results of the files named on a command line, in the order given: documents (PDF,
 * images) are extracted, `.ndjson` files of extraction/v1 results are read as they are; any mix.
 * A file or line that cannot be read becomes an error result (`error` set), which the caller
 * reports and leaves out, so one bad file never stops a batch.
 */
export async function readExtractionResults(files: readonly string[]): Promise<ExtractionResult[]> {
  const slots: ExtractionResult[][] = files.map(() => []);
  const toExtract: Array<{ slot: number; file: string }> = [];
  for (const [slot, file] of files.entries()) {
    if (!file.toLowerCase().endsWith('.ndjson')) {
      toExtract.push({ slot, file });
      continue;
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      slots[slot]!.push(buildErrorResult(file, 'unreadable_file', (e as Error).message));
      continue;
    }
    for (const [n, line] of text.split('\n').entries()) {
      if (!line.trim()) continue;
      try {
        slots[slot]!.push(JSON.parse(line) as ExtractionResult);
      } catch {
        slots[slot]!.push(buildErrorResult(`${file}:${n + 1}`, 'unreadable_file', 'not a JSON line'));
      }
    }
  }
  if (toExtract.length > 0) {
    let at = 0;
    await runExtract(
      {
        type: undefined,
        jobs: availableParallelism(),
        timeoutMs: DEFAULT_LIMITS.timeoutMs,
        files: toExtract.map((e) => e.file),
        threads: true,
      },
      (line) => {
        // runExtract prints in input order, one line per file.
        slots[toExtract[at++]!.slot]!.push(JSON.parse(line) as ExtractionResult);
      },
    );
  }
  return slots.flat();
}
