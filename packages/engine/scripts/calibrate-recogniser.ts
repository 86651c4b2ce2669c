/**
 * Make the int8 recogniser's calibration (`src/ocr/rec-int8.json`), reproducibly:
 *   npm run ocr:calibrate -w @bahi/engine
 * Fixed crops: every text line the detector finds on the repository's dev scans and rendered dev
 * documents (test/fixtures/dev), prepared exactly as the provider prepares them. Over those
 * crops, the range of every convolution's input and output in the simplified float recogniser,
 * from its 0.01 % to its 99.99 % quantile; the provider quantises with them at load (`rec-int8.ts`). Writes the checksums of
 * the float model measured and of the int8 graph built, so a run on the same package gives the
 * same file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { createPaddleOcr, resolveModels } from '../src/ocr/paddle.ts';
import { ocrPageImage } from '../src/ocr/page.ts';
import { exposeTensors, type Range, tensorsToCalibrate } from '../src/ocr/quantize.ts';
import { recogniserForGrey } from '../src/ocr/rec-graph.ts';
import { buildInt8Recogniser, type RecInt8Calibration, sha256 } from '../src/ocr/rec-int8.ts';
import { simplifyOnnxModel } from '../src/ocr/simplify-graph.ts';
import { pageImageDpi, renderPage } from '../src/pdf/render.ts';
import { openPdf } from '../src/pdf/text.ts';
import { devFixtures } from '../test/dev-fixtures.ts';

/** The calibration pages: scans at their own resolution, text documents rendered at 200 dpi. */
const PAGES = [
  'invoice-005.pdf',
  'invoice-007.pdf',
  'invoice-027.pdf',
  'invoice-001.pdf',
  'invoice-003.pdf',
  'invoice-009.pdf',
  'invoice-024.pdf',
  'po-001.pdf',
  'grn-010.pdf',
];

/** Share of each tensor's values left outside its range at either end. */
const TAIL = Number(process.env.CALIBRATION_TAIL ?? 1e-4);

const inputs: Array<{ x: Float32Array; dims: number[] }> = [];
// The float recogniser, so the crops are what the float model sees.
const ocr = await createPaddleOcr({
  threads: 1,
  int8: false,
  onRecognitionInput: (x, dims) => inputs.push({ x: Float32Array.from(x), dims: [...dims] }),
});
for (const name of PAGES) {
  const page = openPdf(readFileSync(new URL(name, devFixtures))).loadPage(0);
  const dpi = pageImageDpi(page) ?? 200;
  const r = renderPage(page, dpi);
  await ocrPageImage(ocr, r.gray, { pageNumber: 1, dpi, raw: { width: r.width, height: r.height } });
}
await ocr.close();

const packaged = new Uint8Array(readFileSync(resolveModels().rec));
// Grey input, as the provider feeds it (the crops collected above are one channel).
const simplified = recogniserForGrey(simplifyOnnxModel(packaged).bytes);
const names = tensorsToCalibrate(simplified);
const probe = await ort.InferenceSession.create(exposeTensors(simplified, names), { intraOpNumThreads: 1 });
const ranges: Record<string, Range> = {};
for (const { x, dims } of inputs) {
  const out = await probe.run({ [probe.inputNames[0] as string]: new ort.Tensor('float32', x, dims) });
  for (const name of names) {
    const d = out[name]?.data as Float32Array;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < d.length; i++) {
      const v = d[i] as number;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const r = ranges[name];
    ranges[name] = r ? { min: Math.min(r.min, lo), max: Math.max(r.max, hi) } : { min: lo, max: hi };
  }
}
// Second pass: each tensor's histogram over its range; the range kept is from the 0.01 % to the
// 99.99 % quantile (with 0), so a few outlying activations do not coarsen every other one's steps.
const BINS = 4096;
const histograms = new Map(names.map((n) => [n, new Float64Array(BINS)]));
for (const { x, dims } of inputs) {
  const out = await probe.run({ [probe.inputNames[0] as string]: new ort.Tensor('float32', x, dims) });
  for (const name of names) {
    const d = out[name]?.data as Float32Array;
    const { min, max } = ranges[name] as Range;
    const h = histograms.get(name) as Float64Array;
    const k = (BINS - 1) / Math.max(1e-12, max - min);
    for (let i = 0; i < d.length; i++) {
      const b = Math.round(((d[i] as number) - min) * k);
      h[b] = (h[b] as number) + 1;
    }
  }
}
await probe.release();
for (const name of names) {
  const { min, max } = ranges[name] as Range;
  const h = histograms.get(name) as Float64Array;
  const total = h.reduce((a, n) => a + n, 0);
  const at = (q: number) => {
    let seen = 0;
    for (let b = 0; b < BINS; b++) {
      seen += h[b] as number;
      if (seen >= q * total) return min + (b * (max - min)) / (BINS - 1);
    }
    return max;
  };
  ranges[name] = { min: Math.min(0, at(TAIL)), max: Math.max(0, at(1 - TAIL)) };
}

const calibration: RecInt8Calibration = {
  modelSha256: sha256(packaged),
  int8Sha256: sha256(buildInt8Recogniser(packaged, ranges)),
  crops: { pages: PAGES, lines: inputs.length },
  ranges,
};
const file = process.argv[2] ?? new URL('../src/ocr/rec-int8.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(calibration, null, 2)}\n`);
console.log(
  `${inputs.length} lines of ${PAGES.length} pages → ${Object.keys(ranges).length} ranges, int8 ${calibration.int8Sha256}`,
);
