import onnxProto from 'onnx-proto';

/**
 * Static int8 quantisation of a model's convolutions, in QDQ form: each convolution's input and
 * output pass through QuantizeLinear → DequantizeLinear (uint8, ranges measured beforehand on
 * calibration crops), its weights are int8 per output channel and its bias int32, so ONNX Runtime
 * runs it as an integer convolution. The Q/DQ nodes are ONNX Runtime's `com.microsoft` ones, which
 * take a per-channel axis in any opset (the recogniser is opset 9, older than the standard ones).
 */

const { onnx } = onnxProto;
type NodeProto = onnxProto.onnx.INodeProto;

/** Activation range of one tensor, as measured on the calibration crops. */
export interface Range {
  min: number;
  max: number;
}

const FLOAT = 1;
/**
 * The largest int8 weight on x86 CPUs without VNNI: 7 bits, not 8. There ONNX Runtime multiplies
 * uint8 activations by int8 weights with an instruction that adds pairs of products into 16 bits,
 * which saturates when full-range weights meet large activations (the recogniser then read about one
 * word in five differently from the float model); 7-bit weights cannot overflow it (ORT's reduce_range).
 */
export const WEIGHT_PEAK_7_BIT = 63;
/**
 * The largest int8 weight where the CPU multiplies with VNNI (32-bit sums, no saturation): the
 * full 8 bits, twice as fine a step (the recogniser read 0.988 of 12 dev pages' words as the float
 * model does, against 0.980 with 7 bits).
 */
export const WEIGHT_PEAK_8_BIT = 127;
const UINT8 = 2;
const INT8 = 3;
const INT32 = 6;
const INT64 = 7;
const MS = 'com.microsoft';

/** Float constants of a graph (Constant nodes and initializers), by name. */
function floatConstants(
  graph: onnxProto.onnx.IGraphProto,
): Map<string, { dims: number[]; data: Float32Array }> {
  const out = new Map<string, { dims: number[]; data: Float32Array }>();
  const read = (name: string | null | undefined, t: onnxProto.onnx.ITensorProto | null | undefined) => {
    if (!name || !t || t.dataType !== FLOAT) return;
    const dims = (t.dims ?? []).map(Number);
    const data = t.rawData?.length
      ? new Float32Array(new Uint8Array(t.rawData).buffer)
      : Float32Array.from(t.floatData ?? []);
    out.set(name, { dims, data });
  };
  for (const t of graph.initializer ?? []) read(t.name, t);
  for (const n of graph.node ?? [])
    if (n.opType === 'Constant') read(n.output?.[0], n.attribute?.find((a) => a.name === 'value')?.t);
  return out;
}

/** Which convolutions to quantise, by their weights' dimensions (out, in, kernel height, kernel width). */
export type ConvSelector = (weightDims: number[]) => boolean;

/** The convolutions that can be quantised (constant 4-D weights, float bias or none) and are selected. */
function quantisableConvs(graph: onnxProto.onnx.IGraphProto, select: ConvSelector = () => true): NodeProto[] {
  const consts = floatConstants(graph);
  return (graph.node ?? []).filter((n) => {
    if (n.opType !== 'Conv' || !n.input?.[0]) return false;
    const w = consts.get(n.input[1] as string);
    return w?.dims.length === 4 && (!n.input[2] || consts.has(n.input[2])) && select(w.dims);
  });
}

/** Names of the tensors whose ranges {@link quantizeConvs} needs: every such convolution's input and output. */
export function tensorsToCalibrate(model: Uint8Array): string[] {
  const graph = onnx.ModelProto.decode(model).graph as onnxProto.onnx.GraphProto;
  const names = new Set<string>();
  for (const n of quantisableConvs(graph)) {
    names.add(n.input?.[0] as string);
    names.add(n.output?.[0] as string);
  }
  return [...names];
}

/** The model with the given inner tensors as extra outputs (to measure them on calibration crops). */
export function exposeTensors(model: Uint8Array, names: string[]): Uint8Array {
  const m = onnx.ModelProto.decode(model);
  const graph = m.graph as onnxProto.onnx.GraphProto;
  const have = new Set(graph.output.map((o) => o.name));
  for (const name of names)
    if (!have.has(name))
      graph.output.push(onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: FLOAT } } }));
  return onnx.ModelProto.encode(m).finish();
}

function tensor(
  name: string,
  dataType: number,
  dims: number[],
  raw: ArrayBufferView,
): onnxProto.onnx.TensorProto {
  return onnx.TensorProto.create({
    name,
    dataType,
    dims,
    rawData: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength),
  });
}

function node(opType: string, inputs: string[], output: string, axis?: number): onnxProto.onnx.NodeProto {
  return onnx.NodeProto.create({
    opType,
    domain: MS,
    input: inputs,
    output: [output],
    name: output,
    attribute:
      axis === undefined
        ? []
        : [
            onnx.AttributeProto.create({
              name: 'axis',
              type: onnx.AttributeProto.AttributeType.INT,
              i: axis,
            }),
          ],
  });
}

/** uint8 scale and zero point of a range (widened to hold 0, as the zero padding must be exact). */
function activationParams(r: Range): { scale: number; zero: number } {
  const lo = Math.min(0, r.min);
  const hi = Math.max(0, r.max, lo + 1e-6);
  const scale = (hi - lo) / 255;
  return { scale, zero: Math.min(255, Math.max(0, Math.round(-lo / scale))) };
}

/**
 * Quantise every selected convolution whose input and output have a measured range; the others stay
 * float. Returns the new model's bytes and how many convolutions were quantised.
 */
export function quantizeConvs(
  model: Uint8Array,
  ranges: Record<string, Range>,
  select?: ConvSelector,
  weightPeak = WEIGHT_PEAK_7_BIT,
): { bytes: Uint8Array; quantised: number } {
  const m = onnx.ModelProto.decode(model);
  const graph = m.graph as onnxProto.onnx.GraphProto;
  const consts = floatConstants(graph);
  const convs = new Set(
    quantisableConvs(graph, select).filter(
      (n) => ranges[n.input?.[0] as string] && ranges[n.output?.[0] as string],
    ),
  );
  const initializers: onnxProto.onnx.TensorProto[] = [];
  // Activation tensors already quantised: their dequantised name, to share between readers.
  const dequantised = new Map<string, string>();
  const written = new Set<string>();
  const params = (name: string) => {
    const p = activationParams(ranges[name] as Range);
    if (!written.has(name)) {
      written.add(name);
      initializers.push(tensor(`${name}_scale`, FLOAT, [], Float32Array.of(p.scale)));
      initializers.push(tensor(`${name}_zero`, UINT8, [], Uint8Array.of(p.zero)));
    }
    return p;
  };
  const nodes: onnxProto.onnx.INodeProto[] = [];
  for (const n of graph.node) {
    if (!convs.has(n)) {
      nodes.push(n);
      continue;
    }
    const x = n.input?.[0] as string;
    const y = n.output?.[0] as string;
    const px = params(x);
    let xdq = dequantised.get(x);
    if (!xdq) {
      xdq = `${x}_dq`;
      nodes.push(node('QuantizeLinear', [x, `${x}_scale`, `${x}_zero`], `${x}_q`));
      nodes.push(node('DequantizeLinear', [`${x}_q`, `${x}_scale`, `${x}_zero`], xdq));
      dequantised.set(x, xdq);
    }
    const w = consts.get(n.input?.[1] as string) as { dims: number[]; data: Float32Array };
    const out = w.dims[0] as number;
    const per = w.data.length / out;
    const wq = new Int8Array(w.data.length);
    const ws = new Float32Array(out);
    const bq = new Int32Array(out);
    const bs = new Float32Array(out);
    const bias = n.input?.[2] ? consts.get(n.input[2])?.data : undefined;
    for (let o = 0; o < out; o++) {
      let peak = 0;
      for (let j = o * per; j < (o + 1) * per; j++) peak = Math.max(peak, Math.abs(w.data[j] as number));
      const s = peak > 0 ? peak / weightPeak : 1;
      ws[o] = s;
      for (let j = o * per; j < (o + 1) * per; j++) wq[j] = Math.round((w.data[j] as number) / s);
      bs[o] = px.scale * s;
      bq[o] = Math.round((bias?.[o] ?? 0) / (bs[o] as number));
    }
    const id = `${y}_conv`;
    initializers.push(
      tensor(`${id}_wq`, INT8, w.dims, wq),
      tensor(`${id}_ws`, FLOAT, [out], ws),
      tensor(`${id}_wz`, INT8, [out], new Int8Array(out)),
      tensor(`${id}_bq`, INT32, [out], bq),
      tensor(`${id}_bs`, FLOAT, [out], bs),
      tensor(`${id}_bz`, INT32, [out], new Int32Array(out)),
    );
    nodes.push(node('DequantizeLinear', [`${id}_wq`, `${id}_ws`, `${id}_wz`], `${id}_w`, 0));
    nodes.push(node('DequantizeLinear', [`${id}_bq`, `${id}_bs`, `${id}_bz`], `${id}_b`, 0));
    // The convolution writes a float tensor that is quantised at once; its readers see the
    // dequantised one under the original name.
    params(y);
    n.input = [xdq, `${id}_w`, `${id}_b`];
    n.output = [`${y}_f`];
    nodes.push(n);
    nodes.push(node('QuantizeLinear', [`${y}_f`, `${y}_scale`, `${y}_zero`], `${y}_q`));
    nodes.push(node('DequantizeLinear', [`${y}_q`, `${y}_scale`, `${y}_zero`], y));
    dequantised.set(y, y);
  }
  // The float weights the int8 ones replace are read by nothing now.
  const used = new Set(nodes.flatMap((n) => n.input ?? []));
  for (const o of graph.output) used.add(o.name as string);
  graph.node = nodes.filter(
    (n) => n.opType !== 'Constant' || used.has(n.output?.[0] as string),
  ) as onnxProto.onnx.NodeProto[];
  graph.initializer = [...graph.initializer.filter((t) => used.has(t.name as string)), ...initializers];
  if (!m.opsetImport.some((o) => o.domain === MS))
    m.opsetImport.push(onnx.OperatorSetIdProto.create({ domain: MS, version: 1 }));
  // ONNX Runtime fuses each Q/DQ group into the standard QLinearConv, which needs opset 10.
  toOpset10(m);
  return { bytes: onnx.ModelProto.encode(m).finish(), quantised: convs.size };
}

/**
 * Raise a model's default-domain opset from 9 to 10. Of the operators these models use, only Slice
 * changed: its starts, ends and axes move from attributes to int64 inputs.
 */
function toOpset10(m: onnxProto.onnx.ModelProto): void {
  const opset = m.opsetImport.find((o) => !o.domain || o.domain === 'ai.onnx');
  if (!opset || Number(opset.version) >= 10) return;
  if (Number(opset.version) !== 9) throw new Error(`cannot raise opset ${opset.version} to 10`);
  const graph = m.graph as onnxProto.onnx.GraphProto;
  for (const n of graph.node) {
    if (n.opType !== 'Slice') continue;
    // int64 attributes arrive as numbers or Longs; through their decimal text either way.
    const ints = (name: string) =>
      (n.attribute ?? []).find((a) => a.name === name)?.ints?.map((v) => BigInt(String(v)));
    const starts = ints('starts') ?? [];
    const ends = ints('ends') ?? [];
    const axes = ints('axes') ?? starts.map((_, i) => BigInt(i));
    const id = `${n.output?.[0]}_slice`;
    graph.initializer.push(
      tensor(`${id}_starts`, INT64, [starts.length], BigInt64Array.from(starts)),
      tensor(`${id}_ends`, INT64, [ends.length], BigInt64Array.from(ends)),
      tensor(`${id}_axes`, INT64, [axes.length], BigInt64Array.from(axes)),
    );
    n.input = [n.input?.[0] as string, `${id}_starts`, `${id}_ends`, `${id}_axes`];
    n.attribute = [];
  }
  opset.version = 10;
}
