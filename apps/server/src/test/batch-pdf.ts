import { readFile } from 'node:fs/promises';
import * as mupdf from 'mupdf';

/**
 * The pages of several PDFs one after the other in one file, as a batch scanned or printed in one go would
 * be: the test's own way to make a file that holds several documents out of fixtures of one each.
 */
export async function batchPdf(paths: string[]): Promise<Uint8Array> {
  const out = new mupdf.PDFDocument();
  for (const path of paths) {
    const src = mupdf.Document.openDocument(await readFile(path), 'application/pdf').asPDF();
    if (!src) throw new Error(`${path} is not a PDF`);
    for (let i = 0; i < src.countPages(); i++) out.graftPage(-1, src, i);
  }
  return new Uint8Array(out.saveToBuffer('compress').asUint8Array());
}
