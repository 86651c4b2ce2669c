import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * Writes `count` copies of `sources` (round robin) into `folder`, each with a distinct trailing PDF comment
 * (`%bahi-copy-<n>`) so every file has its own content hash, as real distinct documents would — otherwise
 * the content-addressed parts of the pipeline could hide double processing. Returns the file names with the
 * source each was copied from.
 */
export async function writeDistinctCopies(
  sources: string[],
  folder: string,
  count: number,
  prefix = 'doc',
): Promise<Array<{ name: string; source: string }>> {
  const bytes = await Promise.all(sources.map((s) => readFile(s)));
  const written: Array<{ name: string; source: string }> = [];
  for (let i = 0; i < count; i++) {
    const k = i % sources.length;
    const name = `${prefix}-${String(i).padStart(4, '0')}${extensionOf(sources[k]!)}`;
    const original = bytes[k]!;
    if (extensionOf(sources[k]!) === '.pdf') {
      // A comment after %%EOF is ignored by PDF readers (mupdf included) but changes the bytes.
      await writeFile(join(folder, name), Buffer.concat([original, Buffer.from(`\n%bahi-copy-${i}\n`)]));
    } else {
      await copyFile(sources[k]!, join(folder, name));
    }
    written.push({ name, source: basename(sources[k]!) });
  }
  return written;
}

function extensionOf(path: string): string {
  const m = /\.[a-z0-9]+$/i.exec(path);
  return m ? m[0].toLowerCase() : '';
}
