import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import { resolveModels } from './paddle.ts';
import { simplifyOnnxModel } from './simplify-graph.ts';

/**
 * A fixed input: the top left of a dev invoice (print, so the detector's map is far from empty),
 * with deterministic noise, in the models' normalised range.
 */
function fixedInput(dims: number[]): Float32Array {
  const [, channels, height, width] = dims as [number, number, number, number];
  const page = renderPage(openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0), 100);
  const x = new Float32Array(channels * height * width);
  let seed = 7;
  for (let c = 0; c < channels; c++)
    for (let y = 0; y < height; y++)
      for (let i = 0; i < width; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const v = (page.gray[(y + 40) * page.width + i + 40] as number) / 255;
        x[(c * height + y) * width + i] = (v - 0.5) / 0.25 + 0.2 * (seed / 2147483648 - 0.5);
      }
  return x;
}

async function run(model: Uint8Array, x: Float32Array, dims: number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  try {
    const out = await session.run({ [session.inputNames[0] as string]: new ort.Tensor('float32', x, dims) });
    return out[session.outputNames[0] as string]?.data as Float32Array;
  } finally {
    await session.release();
  }
}

describe('simplifyOnnxModel', () => {
  const files = resolveModels();
  it.each([
    ['detector', files.det, [1, 3, 256, 320], 3],
    ['recogniser', files.rec, [1, 3, 48, 320], 0],
  ] as const)(
    'gives the packaged %s’s outputs within float rounding, with fewer nodes',
    async (_, file, dims, transposedFolded) => {
      const packaged = new Uint8Array(readFileSync(file));
      const { bytes, report } = simplifyOnnxModel(packaged);
      // Every convolution's scale-and-shift and every hardswish of PP-OCRv4 matches a pattern.
      expect(report.folded).toBeGreaterThan(80);
      expect(report.hardswish).toBeGreaterThan(20);
      expect(report.nodesAfter).toBeLessThan(report.nodesBefore / 2);
      // DBNet's head: each transposed convolution's bias Add (and the first's batch norm) folded.
      expect(report.transposedFolded).toBe(transposedFolded);
      const x = fixedInput([...dims]);
      const want = await run(packaged, x, [...dims]);
      const got = await run(bytes, x, [...dims]);
      expect(got.length).toBe(want.length);
      let worst = 0;
      let spread = 0;
      for (let i = 0; i < want.length; i++) {
        worst = Math.max(worst, Math.abs((got[i] as number) - (want[i] as number)));
        spread = Math.max(spread, Math.abs(want[i] as number));
      }
      // Probabilities (sigmoid map, softmax over characters): far from a fixed output.
      expect(spread).toBeGreaterThan(0.5);
      expect(worst).toBeLessThan(1e-4);
    },
  );
});
