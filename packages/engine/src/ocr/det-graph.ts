import onnxProto from 'onnx-proto';
import { inputConvolution } from './rec-graph.ts';

/**
 * Load-time rewrite of the detector's graph for the grey pages the provider feeds it, with the same
 * arithmetic up to float rounding. The detector was trained on three channels normalised as
 * ImageNet's, (v / 255 − mean) / std per channel; a grey page puts the same v in all three. Its
 * first convolution is linear, so the normalisation and the channels fold into its weights: it reads
 * the grey level v itself (0–255) in one channel, and a second channel of ones carries the shift.
 * The ones channel keeps the border exact: the convolution's zero padding meant a normalised value of
 * 0 in each channel (a different grey in each), and with the shift on a ones channel the padding
 * still adds nothing, where a shift folded into the bias would be added for padded taps too.
 * The provider fills one plane from the page's bytes and the ones plane once, not three planes.
 */

const { onnx } = onnxProto;

/** ImageNet normalisation the detector was trained with (per channel, as PaddleOCR feeds it). */
export const DET_MEAN = [0.485, 0.456, 0.406] as const;
export const DET_STD = [0.229, 0.224, 0.225] as const;

/** Channels of the rewritten detector's input: the grey level (0–255), then ones. */
export const DET_GREY_CHANNELS = 2;

/**
 * The first convolution's weights W[o, c, tap] for normalised channels, as weights for the grey
 * level and for the ones channel: Σ_c W / (255 · std_c) and −Σ_c W · mean_c / std_c.
 */
export function greyWeights(w: Float32Array, out: number, taps: number): Float32Array {
  const folded = new Float32Array(out * DET_GREY_CHANNELS * taps);
  for (let o = 0; o < out; o++)
    for (let j = 0; j < taps; j++) {
      let grey = 0;
      let ones = 0;
      for (let c = 0; c < 3; c++) {
        const v = w[(o * 3 + c) * taps + j] as number;
        grey += v / (255 * (DET_STD[c] as number));
        ones -= (v * (DET_MEAN[c] as number)) / (DET_STD[c] as number);
      }
      folded[(o * DET_GREY_CHANNELS + 0) * taps + j] = grey;
      folded[(o * DET_GREY_CHANNELS + 1) * taps + j] = ones;
    }
  return folded;
}

/**
 * The detector (a float ONNX model's bytes, packaged or simplified) rewritten to read the grey level
 * and a ones channel (see above). Throws when its input is not read by one three-channel convolution.
 */
export function detectorForGrey(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as onnxProto.onnx.GraphProto;
  const first = inputConvolution(graph);
  if (first?.dims[1] !== 3)
    throw new Error('detector graph: its input is not read by one three-channel convolution');
  const { w, dims, channelDim } = first;
  const [out, , kh, kw] = dims;
  const folded = greyWeights(w.data, out, kh * kw);
  w.t.dims = [out, DET_GREY_CHANNELS, kh, kw];
  w.t.rawData = new Uint8Array(folded.buffer);
  channelDim.dimValue = DET_GREY_CHANNELS;
  return onnx.ModelProto.encode(model).finish();
}
