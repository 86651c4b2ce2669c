/**
 * Where PP-OCR's time goes on page images (dev tool): page preparation, detector and recogniser
 * inference, and the rest (resizing, post-processing, word cutting), in CPU and wall seconds.
 *
 *   npx tsx packages/engine/dev/dev-ocr-profile.ts PAGES.json [--threads N] [--layout tiles|strips]
 *     [--int8 | --float] [--inked-area] [--det-max-side N] [--rec-width-scale K] [--dump FILE]
 *
 * PAGES.json: [{ "file": "page.png", "dpi": 200 }, ...] (the engine bench keeps one with
 * BAHI_BENCH_KEEP=1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import ort from 'onnxruntime-node';
import type { PaddleOcrOptions } from '../src/ocr/paddle-options.ts';
import { decodeGray, encodePgm, preprocessPage } from '../src/ocr/page.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threads: { type: 'string', default: '1' },
    layout: { type: 'string' },
    'det-max-side': { type: 'string' },
    'rec-width-scale': { type: 'string' },
    'inked-area': { type: 'boolean', default: false },
    // The int8 or the float recogniser (default: the provider's, int8 on a CPU with VNNI).
    int8: { type: 'boolean', default: false },
    float: { type: 'boolean', default: false },
    // Write every page's words as JSON (to compare two builds' output).
    dump: { type: 'string' },
    // Another build of the provider to load (a copy of paddle.ts), for before/after comparisons.
    module: { type: 'string' },
  },
});

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const clock = () => performance.now() / 1000;

// Inference time by model, told apart by the input's channel count and height.
const spent = { det: { cpu: 0, wall: 0, calls: 0, px: 0 }, rec: { cpu: 0, wall: 0, calls: 0, px: 0 } };
const proto = (
  ort.InferenceSession as unknown as { prototype: { run: (...a: unknown[]) => Promise<unknown> } }
).prototype;
const original = proto.run;
proto.run = async function (this: unknown, ...args: unknown[]) {
  const feeds = args[0] as Record<string, { dims: number[] }>;
  const dims = (Object.values(feeds)[0] as { dims: number[] }).dims;
  const which = dims[2] === 48 ? spent.rec : spent.det;
  const c0 = cpu();
  const w0 = clock();
  const out = await original.apply(this, args);
  which.cpu += cpu() - c0;
  which.wall += clock() - w0;
  which.calls++;
  which.px += (dims[2] as number) * (dims[3] as number);
  return out;
};

const pages = JSON.parse(readFileSync(positionals[0] as string, 'utf8')) as Array<{
  file: string;
  dpi: number;
}>;
const opts: PaddleOcrOptions = {
  threads: Number(values.threads),
  detLayout: values.layout as 'tiles' | 'strips' | undefined,
  int8: values.float ? false : values.int8 ? true : undefined,
};
if (values['det-max-side']) opts.detMaxSide = Number(values['det-max-side']);
if (values['inked-area']) opts.detInkedArea = true;
if (values['rec-width-scale']) opts.recWidthScale = Number(values['rec-width-scale']);
const { createPaddleOcr } = (await import(
  values.module ?? '../src/ocr/paddle.ts'
)) as typeof import('../src/ocr/paddle.ts');
const ocr = await createPaddleOcr(opts);
const dumped: unknown[] = [];
let prepCpu = 0;
let decodeCpu = 0;
const stepCpu = new Map<string, number>();
let ocrCpu = 0;
let ocrWall = 0;
let words = 0;
let lines = 0;
for (const p of pages) {
  const c0 = cpu();
  const gray = await decodeGray(new Uint8Array(readFileSync(p.file)));
  decodeCpu += cpu() - c0;
  let last = cpu();
  const pre = await preprocessPage(gray, p.dpi, undefined, (step) => {
    const now = cpu();
    stepCpu.set(step, (stepCpu.get(step) ?? 0) + now - last);
    last = now;
  });
  const c1 = cpu();
  const w1 = clock();
  const r0 = spent.rec.calls;
  const got = await ocr.recognize(encodePgm(pre.image));
  prepCpu += c1 - c0;
  ocrCpu += cpu() - c1;
  ocrWall += clock() - w1;
  words += got.length;
  dumped.push(got);
  lines += spent.rec.calls - r0;
  console.error(
    `${p.file.split('/').pop()}: ${gray.width}×${gray.height} → ${pre.image.width}×${pre.image.height}, ${spent.rec.calls - r0} lines, ${got.length} words`,
  );
}
await ocr.close();
if (values.dump) writeFileSync(values.dump, JSON.stringify(dumped));
const n = pages.length;
const f = (x: number) => (x / n).toFixed(3);
console.log(
  `pages ${n}, recogniser calls ${lines} (short lines batched), words ${words}, threads ${values.threads}, layout ${values.layout}`,
);
console.log(
  `CPU-s per page: prep ${f(prepCpu)}, ocr ${f(ocrCpu)} (det ${f(spent.det.cpu)}, rec ${f(spent.rec.cpu)}, other ${f(ocrCpu - spent.det.cpu - spent.rec.cpu)})`,
);
console.log(
  `prep CPU-s per page: decode ${f(decodeCpu)}, ${[...stepCpu].map(([k, v]) => `${k} ${f(v)}`).join(', ')}`,
);
console.log(`wall-s per page: ocr ${f(ocrWall)} (det ${f(spent.det.wall)}, rec ${f(spent.rec.wall)})`);
console.log(
  `det calls/page ${(spent.det.calls / n).toFixed(1)}, det Mpx/page ${(spent.det.px / n / 1e6).toFixed(2)}; rec Mpx/page ${(spent.rec.px / n / 1e6).toFixed(2)}`,
);
