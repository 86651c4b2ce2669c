import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { quantizeConvs, type Range, WEIGHT_PEAK_7_BIT, WEIGHT_PEAK_8_BIT } from './quantize.ts';
import { recogniserForGrey } from './rec-graph.ts';
import calibration from './rec-int8.json' with { type: 'json' };
import { simplifyOnnxModel } from './simplify-graph.ts';

/**
 * The int8 recogniser: PP-OCRv4's recogniser from the npm package, simplified, with its
 * convolutions quantised statically per channel from this repository's calibration, measured on
 * fixed crops of the dev scans by `scripts/calibrate-recogniser.ts`
 * (`npm run ocr:calibrate -w @bahi/engine`). The calibration is the only thing that script
 * makes; the int8 graph is rebuilt from it at load, byte for byte the same (its checksum is kept
 * with the calibration and tested).
 */

/** The calibration file: activation ranges of the recogniser's convolutions. */
export interface RecInt8Calibration {
  /** sha256 of the packaged float recogniser the ranges were measured on. */
  modelSha256: string;
  /** sha256 of the int8 graph {@link buildInt8Recogniser} makes from it (7-bit weights). */
  int8Sha256: string;
  /** How the ranges were measured (for people). */
  crops: { pages: string[]; lines: number };
  ranges: Record<string, Range>;
}

/** sha256 of some bytes, in hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Fewest input channels of a convolution that is quantised; only pointwise (1 × 1) ones are. The
 * pointwise convolutions of the last two stages (128 to 480 channels, at a quarter of the line's
 * width) take about four fifths of the recogniser's convolution time; quantising only them measured
 * faster than quantising all (0.88 against 0.95 CPU-s of recognition a dev page: fewer Q/DQ pairs)
 * and read more words as the float model does (F1 0.980 against 0.967 on 12 dev pages).
 */
export const INT8_MIN_CHANNELS = 128;

/** Whether a convolution, by its weights' dimensions, is quantised (see {@link INT8_MIN_CHANNELS}). */
export function quantisedInInt8(dims: number[]): boolean {
  return dims[2] === 1 && dims[3] === 1 && (dims[1] as number) >= INT8_MIN_CHANNELS;
}

/**
 * The int8 graph of a packaged float recogniser (read as grey, `rec-graph.ts`), from calibration
 * ranges, with 8-bit weights for a CPU with VNNI and 7-bit ones otherwise (see `quantize.ts`).
 */
export function buildInt8Recogniser(
  floatModel: Uint8Array,
  ranges: Record<string, Range>,
  vnni = false,
): Uint8Array {
  const graph = recogniserForGrey(simplifyOnnxModel(floatModel).bytes);
  return quantizeConvs(graph, ranges, quantisedInInt8, vnni ? WEIGHT_PEAK_8_BIT : WEIGHT_PEAK_7_BIT).bytes;
}

/**
 * Whether this CPU multiplies int8 with VNNI (AVX-512 VNNI or AVX-VNNI), from Linux's CPU flags;
 * false where they cannot be read (the 7-bit weights are right on every CPU).
 */
export function cpuHasVnni(cpuinfo = readCpuInfo()): boolean {
  return cpuinfo.includes('avx512_vnni') || cpuinfo.includes('avx_vnni');
}

function readCpuInfo(): string {
  if (os.platform() !== 'linux' || os.arch() !== 'x64') return '';
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
}

/**
 * The int8 recogniser's bytes, or null (the float one is used) when the calibration is empty or
 * was measured on another model than the installed one (an upgraded npm package).
 */
export function int8Recogniser(recFile: string): Uint8Array | null {
  const c = calibration as RecInt8Calibration;
  if (!c.modelSha256 || Object.keys(c.ranges).length === 0) return null;
  const model = new Uint8Array(readFileSync(recFile));
  if (sha256(model) !== c.modelSha256) return null;
  return buildInt8Recogniser(model, c.ranges, cpuHasVnni());
}
