import onnxProto from 'onnx-proto';

/**
 * Load-time rewrites of the recogniser's graph for the way the provider feeds and reads it, with
 * the same arithmetic up to float rounding:
 * - Grey input. The provider reads grey pages, so the three input channels always hold the same
 *   values; the first convolution's weights summed over its input channels read one channel
 *   instead (zero padding stays zero), and the provider fills a third of the input.
 * - Best class in the graph. The recogniser's output is a probability for each of 6,625 classes
 *   at each time step (some 80 MB copied out of ONNX Runtime for a page of lines), of which
 *   greedy CTC decoding needs only each step's best class and its probability; an ArgMax and a
 *   ReduceMax after the softmax hand out just those.
 */

const { onnx } = onnxProto;
type NodeProto = onnxProto.onnx.INodeProto;

const FLOAT = 1;
const INT32 = 6;

/** Names of the outputs {@link recogniserForGrey} gives the graph. */
export const REC_OUTPUTS = { best: 'ctc_best_class', prob: 'ctc_best_prob' } as const;

/**
 * A float constant's tensor (an initializer or a Constant node's value) and its values, copied:
 * raw bytes need not be 4-byte aligned. Null when there is none.
 */
function floatConstant(graph: onnxProto.onnx.IGraphProto, name: string) {
  const t =
    graph.initializer?.find((i) => i.name === name) ??
    graph.node
      ?.find((n) => n.opType === 'Constant' && n.output?.[0] === name)
      ?.attribute?.find((a) => a.name === 'value')?.t;
  if (!t || t.dataType !== FLOAT || !t.rawData?.length) return null;
  return { t, data: new Float32Array(new Uint8Array(t.rawData).buffer) };
}

/** Sum the first convolution's weights over its input channels and make the input one channel. */
function greyInput(graph: onnxProto.onnx.GraphProto): void {
  const input = graph.input[0];
  const name = input?.name as string;
  const readers = graph.node.filter((n) => n.input?.includes(name));
  const conv = readers[0];
  const w =
    conv?.opType === 'Conv' && readers.length === 1 ? floatConstant(graph, conv.input?.[1] ?? '') : null;
  const dims = (w?.t.dims ?? []).map(Number);
  const channelDim = input?.type?.tensorType?.shape?.dim?.[1];
  if (!w || dims.length !== 4 || conv?.input?.[0] !== name || !channelDim)
    throw new Error('recogniser graph: its input is not read by one convolution');
  const [out, inCh, kh, kw] = dims as [number, number, number, number];
  const k = kh * kw;
  const summed = new Float32Array(out * k);
  for (let o = 0; o < out; o++)
    for (let c = 0; c < inCh; c++)
      for (let j = 0; j < k; j++)
        summed[o * k + j] = (summed[o * k + j] as number) + (w.data[(o * inCh + c) * k + j] as number);
  w.t.dims = [out, 1, kh, kw];
  w.t.rawData = new Uint8Array(summed.buffer);
  channelDim.dimValue = 1;
}

/** Replace the softmax output by each time step's best class (int32) and its probability. */
function bestClassOutputs(graph: onnxProto.onnx.GraphProto): void {
  const probs = graph.output[0]?.name as string;
  const axis = (v: number) =>
    onnx.AttributeProto.create({ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: v });
  const keep = onnx.AttributeProto.create({
    name: 'keepdims',
    type: onnx.AttributeProto.AttributeType.INT,
    i: 0,
  });
  const node = (opType: string, input: string, output: string, attribute: onnxProto.onnx.IAttributeProto[]) =>
    onnx.NodeProto.create({ opType, input: [input], output: [output], name: output, attribute }) as NodeProto;
  const axes = onnx.AttributeProto.create({
    name: 'axes',
    type: onnx.AttributeProto.AttributeType.INTS,
    ints: [2],
  });
  const to = onnx.AttributeProto.create({
    name: 'to',
    type: onnx.AttributeProto.AttributeType.INT,
    i: INT32,
  });
  graph.node.push(
    node('ArgMax', probs, `${REC_OUTPUTS.best}_i64`, [axis(2), keep]) as onnxProto.onnx.NodeProto,
    node('Cast', `${REC_OUTPUTS.best}_i64`, REC_OUTPUTS.best, [to]) as onnxProto.onnx.NodeProto,
    node('ReduceMax', probs, REC_OUTPUTS.prob, [axes, keep]) as onnxProto.onnx.NodeProto,
  );
  const value = (name: string, elemType: number) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType } } });
  graph.output = [value(REC_OUTPUTS.best, INT32), value(REC_OUTPUTS.prob, FLOAT)];
}

/**
 * The recogniser (a float ONNX model's bytes, packaged or simplified) rewritten to read one grey
 * channel and hand out each time step's best class and probability (see above).
 */
export function recogniserForGrey(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as onnxProto.onnx.GraphProto;
  greyInput(graph);
  bestClassOutputs(graph);
  return onnx.ModelProto.encode(model).finish();
}
