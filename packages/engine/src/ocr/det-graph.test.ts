import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import { DET_GREY_CHANNELS, DET_MEAN, DET_STD, detectorForGrey } from './det-graph.ts';
import { resolveModels } from './paddle.ts';
import { simplifyOnnxModel } from './simplify-graph.ts';

const HEIGHT = 256;
const WIDTH = 320;

/**
 * Grey pixels of a dev invoice's print, cut so that print touches every edge (where the zero
 * padding of the first convolution matters), with a dark bar along the top and left edges.
 */
function fixedGrey(): Uint8Array {
  const page = renderPage(openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0), 100);
  const grey = new Uint8Array(HEIGHT * WIDTH);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) {
      const v = page.gray[(y + 60) * page.width + x + 30] as number;
      grey[y * WIDTH + x] = y < 3 || x < 3 ? 0 : v;
    }
  return grey;
}

async function run(model: Uint8Array, x: Float32Array, channels: number): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  try {
    const dims = [1, channels, HEIGHT, WIDTH];
    const out = await session.run({ [session.inputNames[0] as string]: new ort.Tensor('float32', x, dims) });
    return out[session.outputNames[0] as string]?.data as Float32Array;
  } finally {
    await session.release();
  }
}

describe('detectorForGrey', () => {
  it('gives the packaged detector’s map of a grey page within float rounding, at the borders too', async () => {
    const packaged = new Uint8Array(readFileSync(resolveModels().det));
    const grey = fixedGrey();
    const plane = HEIGHT * WIDTH;
    // The packaged detector reads the grey in three channels, each normalised as ImageNet's.
    const rgb = new Float32Array(3 * plane);
    for (let c = 0; c < 3; c++)
      for (let i = 0; i < plane; i++)
        rgb[c * plane + i] = ((grey[i] as number) / 255 - (DET_MEAN[c] as number)) / (DET_STD[c] as number);
    const two = new Float32Array(DET_GREY_CHANNELS * plane).fill(1);
    two.set(grey);
    const want = await run(packaged, rgb, 3);
    const got = await run(detectorForGrey(simplifyOnnxModel(packaged).bytes), two, DET_GREY_CHANNELS);
    expect(got.length).toBe(want.length);
    let worst = 0;
    let edge = 0;
    let found = 0;
    for (let i = 0; i < plane; i++) {
      const d = Math.abs((got[i] as number) - (want[i] as number));
      worst = Math.max(worst, d);
      const x = i % WIDTH;
      const y = (i - x) / WIDTH;
      if (x < 4 || y < 4 || x >= WIDTH - 4 || y >= HEIGHT - 4) edge = Math.max(edge, d);
      if ((want[i] as number) > 0.3) found++;
    }
    // Print was found (a fixed map would pass trivially), and the maps agree everywhere.
    expect(found).toBeGreaterThan(plane / 20);
    expect(worst).toBeLessThan(1e-4);
    expect(edge).toBeLessThan(1e-4);
  });

  it('refuses a graph whose input is not one three-channel convolution’s', () => {
    const det = simplifyOnnxModel(new Uint8Array(readFileSync(resolveModels().det))).bytes;
    const once = detectorForGrey(det);
    expect(() => detectorForGrey(once)).toThrow(/three-channel/);
  });
});
