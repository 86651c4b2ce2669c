/**
 * Collect the recogniser's input tensors on page images (dev tool), to time or profile recogniser
 * graphs on the same inputs (`dev-rec-profile.ts`).
 *
 *   npx tsx packages/engine/dev/dev-rec-inputs.ts PAGES.json OUT.bin
 *
 * OUT.bin: per tensor, four uint32 dims then the float32 values.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createPaddleOcr } from '../src/ocr/paddle.ts';
import { decodeGray, encodePgm, preprocessPage } from '../src/ocr/page.ts';

const [pagesFile, outFile] = process.argv.slice(2) as [string, string];
const pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as Array<{ file: string; dpi: number }>;
const chunks: Buffer[] = [];
const ocr = await createPaddleOcr({
  threads: 1,
  onRecognitionInput: (x, dims) => {
    chunks.push(Buffer.from(Uint32Array.from(dims).buffer));
    chunks.push(Buffer.from(x.slice().buffer));
  },
});
for (const p of pages) {
  const gray = await decodeGray(new Uint8Array(readFileSync(p.file)));
  const pre = await preprocessPage(gray, p.dpi);
  await ocr.recognize(encodePgm(pre.image));
}
await ocr.close();
writeFileSync(outFile, Buffer.concat(chunks));
console.log(`${chunks.length / 2} tensors`);
