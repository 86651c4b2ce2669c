import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import { resolveModels } from './paddle.ts';
import { latinClasses, REC_OUTPUTS, recogniserForGrey, restrictClasses } from './rec-graph.ts';
import { simplifyOnnxModel } from './simplify-graph.ts';

const HEIGHT = 48;
const WIDTH = 320;

/** A fixed grey input: a band of a dev invoice's print, scaled to the recogniser's [-1, 1]. */
function greyBand(): Float32Array {
  const page = renderPage(openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0), 100);
  const x = new Float32Array(HEIGHT * WIDTH);
  for (let y = 0; y < HEIGHT; y++)
    for (let i = 0; i < WIDTH; i++)
      x[y * WIDTH + i] = (page.gray[(y + 40) * page.width + i + 40] as number) / 127.5 - 1;
  return x;
}

async function run(model: Uint8Array, x: Float32Array, channels: number) {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  try {
    const feed = new Float32Array(channels * x.length);
    for (let c = 0; c < channels; c++) feed.set(x, c * x.length);
    const input = new ort.Tensor('float32', feed, [1, channels, HEIGHT, WIDTH]);
    return await session.run({ [session.inputNames[0] as string]: input });
  } finally {
    await session.release();
  }
}

describe('recogniserForGrey', () => {
  it.each([
    ['packaged', false],
    ['simplified', true],
  ])(
    'reads one grey channel and gives the %s recogniser’s best class and probability at every step',
    async (_, simplify) => {
      const packaged = new Uint8Array(readFileSync(resolveModels().rec));
      const float = simplify ? simplifyOnnxModel(packaged).bytes : packaged;
      const x = greyBand();
      const before = await run(float, x, 3);
      const probs = Object.values(before)[0] as ort.Tensor;
      const [, steps, classes] = probs.dims as [number, number, number];
      const after = await run(recogniserForGrey(float), x, 1);
      const best = after[REC_OUTPUTS.best]?.data as Int32Array;
      const prob = after[REC_OUTPUTS.prob]?.data as Float32Array;
      expect(best).toBeInstanceOf(Int32Array);
      expect(best.length).toBe(steps);
      const p = probs.data as Float32Array;
      let nonBlank = 0;
      for (let t = 0; t < steps; t++) {
        const row = p.subarray(t * classes, (t + 1) * classes);
        const want = row.indexOf(Math.max(...row));
        expect(best[t]).toBe(want);
        expect(Math.abs((prob[t] as number) - (row[want] as number))).toBeLessThan(1e-4);
        if (want !== 0) nonBlank++;
      }
      // Print under the band: characters, not only blanks.
      expect(nonBlank).toBeGreaterThan(5);
    },
  );
});

describe('restrictClasses', () => {
  it('reads the best kept class by its dictionary index, with its probability among the kept', async () => {
    const float = recogniserForGrey(
      simplifyOnnxModel(new Uint8Array(readFileSync(resolveModels().rec))).bytes,
    );
    const x = greyBand();
    const full = await run(float, x, 1);
    const fullBest = full[REC_OUTPUTS.best]?.data as Int32Array;
    // Every class the full head picked, and every seventh other one.
    const picked = new Set(fullBest);
    const classes = Array.from({ length: 6625 }, (_, i) => i).filter((i) => picked.has(i) || i % 7 === 0);
    const cut = await run(restrictClasses(float, classes), x, 1);
    const best = cut[REC_OUTPUTS.best]?.data as Int32Array;
    const prob = cut[REC_OUTPUTS.prob]?.data as Float32Array;
    const fullProb = full[REC_OUTPUTS.prob]?.data as Float32Array;
    expect([...best]).toEqual([...fullBest]);
    for (let t = 0; t < best.length; t++) {
      // Fewer classes share the probability: the winner's is at least what it was.
      expect(prob[t]).toBeGreaterThanOrEqual((fullProb[t] as number) - 1e-5);
      expect(prob[t]).toBeLessThanOrEqual(1 + 1e-5);
    }
    // Without the winning classes, another (kept) class wins instead.
    const without = classes.filter((c) => c === 0 || !picked.has(c));
    const other = (await run(restrictClasses(float, without), x, 1))[REC_OUTPUTS.best]?.data as Int32Array;
    for (const c of other) expect(without).toContain(c);
  });
});

describe('hard swishes', () => {
  it('are one HardSwish each in the simplified recogniser (its outputs checked above)', async () => {
    const onnxProto = (await import('onnx-proto')).default;
    const simplified = simplifyOnnxModel(new Uint8Array(readFileSync(resolveModels().rec))).bytes;
    const ops = (bytes: Uint8Array) =>
      (onnxProto.onnx.ModelProto.decode(bytes).graph?.node ?? []).map((n) => n.opType as string);
    const before = ops(simplified);
    const after = ops(recogniserForGrey(simplified));
    const swishes = after.filter((op) => op === 'HardSwish').length;
    expect(swishes).toBeGreaterThan(20);
    expect(after.filter((op) => op === 'HardSigmoid').length).toBe(
      before.filter((op) => op === 'HardSigmoid').length - swishes,
    );
  });
});

describe('latinClasses', () => {
  it('keeps the blank, Latin letters, digits, full-width forms and symbols, not Chinese, Japanese or Korean', () => {
    const dictionary = ['', 'a', '中', 'Z', '：', 'ア', '한', '7', '₹', '°', ' '];
    expect(latinClasses(dictionary)).toEqual([0, 1, 3, 4, 7, 8, 9, 10]);
  });
});
