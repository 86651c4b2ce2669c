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
 * - One HardSwish for each hard-swish activation (written as HardSigmoid and Mul, opset 9 has no
 *   HardSwish): one pass over the activation instead of two, and in the int8 graph one
 *   dequantisation of the convolution's output instead of one for each of the two readers (4 %
 *   of recognition on the bench pages). HardSwish needs opset 14, to which the graph is raised.
 */

const { onnx } = onnxProto;
type NodeProto = onnxProto.onnx.INodeProto;

const FLOAT = 1;
const INT32 = 6;
const INT64 = 7;

/** Names of the outputs {@link recogniserForGrey} gives the graph. */
export const REC_OUTPUTS = { best: 'ctc_best_class', prob: 'ctc_best_prob' } as const;

/**
 * A float constant's tensor (an initializer or a Constant node's value) and its values, copied:
 * raw bytes need not be 4-byte aligned. Null when there is none.
 */
export function floatConstant(graph: onnxProto.onnx.IGraphProto, name: string) {
  const t =
    graph.initializer?.find((i) => i.name === name) ??
    graph.node
      ?.find((n) => n.opType === 'Constant' && n.output?.[0] === name)
      ?.attribute?.find((a) => a.name === 'value')?.t;
  if (!t || t.dataType !== FLOAT || !t.rawData?.length) return null;
  return { t, data: new Float32Array(new Uint8Array(t.rawData).buffer) };
}

/**
 * The convolution that alone reads a graph's input: its weights (a writable float constant), their
 * dims [out, in, kh, kw] and the input's channel dimension. Null when the input is read otherwise.
 */
export function inputConvolution(graph: onnxProto.onnx.GraphProto) {
  const input = graph.input[0];
  const name = input?.name as string;
  const readers = graph.node.filter((n) => n.input?.includes(name));
  const conv = readers[0];
  const w =
    conv?.opType === 'Conv' && readers.length === 1 ? floatConstant(graph, conv.input?.[1] ?? '') : null;
  const dims = (w?.t.dims ?? []).map(Number);
  const channelDim = input?.type?.tensorType?.shape?.dim?.[1];
  if (!w || dims.length !== 4 || conv?.input?.[0] !== name || !channelDim) return null;
  return { w, dims: dims as [number, number, number, number], channelDim };
}

/** Sum the first convolution's weights over its input channels and make the input one channel. */
function greyInput(graph: onnxProto.onnx.GraphProto): void {
  const first = inputConvolution(graph);
  if (!first) throw new Error('recogniser graph: its input is not read by one convolution');
  const { w, dims, channelDim } = first;
  const [out, inCh, kh, kw] = dims;
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
 * Operators whose opset-9 form means the same at opset 14, besides Slice and Squeeze (rewritten:
 * their axes move to inputs). Softmax counts because the recogniser's softmaxes all take the last
 * axis, where opset 13's per-axis softmax and the older one over the flattened tail agree.
 */
const SAME_AT_OPSET_14 = new Set(
  (
    'Add AveragePool Cast Concat Constant Conv Div GlobalAveragePool HardSigmoid MatMul Mul Pow ' +
    'ReduceMean Relu Reshape Shape Sigmoid Softmax Sqrt Sub Transpose ArgMax ReduceMax'
  ).split(' '),
);

/** An int64 vector initializer. */
function int64s(name: string, values: bigint[]): onnxProto.onnx.TensorProto {
  const data = BigInt64Array.from(values);
  return onnx.TensorProto.create({
    name,
    dataType: INT64,
    dims: [values.length],
    rawData: new Uint8Array(data.buffer),
  });
}

/** An integer list attribute's values (int64s arrive as numbers or Longs; read through their text). */
function intsAttribute(n: NodeProto, name: string): bigint[] | undefined {
  return n.attribute?.find((a) => a.name === name)?.ints?.map((v) => BigInt(String(v)));
}

/**
 * Raise an opset-9 graph to opset 14 (Slice's and Squeeze's attributes become inputs). False, and
 * the graph untouched, when it is at another opset or holds an operator not known to mean the same.
 */
function toOpset14(model: onnxProto.onnx.ModelProto): boolean {
  const opset = model.opsetImport.find((o) => !o.domain || o.domain === 'ai.onnx');
  const graph = model.graph as onnxProto.onnx.GraphProto;
  if (Number(opset?.version) !== 9 || !opset) return false;
  const convertible = (n: NodeProto) =>
    (n.domain && n.domain !== 'ai.onnx') ||
    SAME_AT_OPSET_14.has(n.opType as string) ||
    n.opType === 'Slice' ||
    n.opType === 'Squeeze';
  if (!graph.node.every(convertible)) return false;
  for (const n of graph.node) {
    const id = n.output?.[0] as string;
    if (n.opType === 'Slice') {
      const starts = intsAttribute(n, 'starts') ?? [];
      const axes = intsAttribute(n, 'axes') ?? starts.map((_, i) => BigInt(i));
      graph.initializer.push(
        int64s(`${id}_starts`, starts),
        int64s(`${id}_ends`, intsAttribute(n, 'ends') ?? []),
        int64s(`${id}_axes`, axes),
      );
      n.input = [n.input?.[0] as string, `${id}_starts`, `${id}_ends`, `${id}_axes`];
      n.attribute = [];
    } else if (n.opType === 'Squeeze' && intsAttribute(n, 'axes')) {
      graph.initializer.push(int64s(`${id}_axes`, intsAttribute(n, 'axes') ?? []));
      n.input = [n.input?.[0] as string, `${id}_axes`];
      n.attribute = [];
    }
  }
  opset.version = 14;
  return true;
}

/** HardSigmoid's slope and offset in a hard swish, x · HardSigmoid(x) = x · clip(x / 6 + 1/2, 0, 1). */
const HARD_SWISH = { alpha: 1 / 6, beta: 0.5 };

/** Whether a HardSigmoid node is the one of a hard swish (float attributes within rounding). */
function isHardSwishSigmoid(n: NodeProto): boolean {
  const f = (name: string, dflt: number) => n.attribute?.find((a) => a.name === name)?.f ?? dflt;
  return (
    n.opType === 'HardSigmoid' &&
    Math.abs(f('alpha', 0.2) - HARD_SWISH.alpha) < 1e-6 &&
    Math.abs(f('beta', 0.5) - HARD_SWISH.beta) < 1e-6
  );
}

/** Replace every x · HardSigmoid(x) (its Mul the sigmoid's only reader) by HardSwish(x). */
function fuseHardSwish(graph: onnxProto.onnx.GraphProto): number {
  const readers = new Map<string, NodeProto[]>();
  for (const n of graph.node) for (const i of n.input ?? []) readers.set(i, [...(readers.get(i) ?? []), n]);
  const fused = new Set<NodeProto>();
  for (const h of graph.node) {
    if (!isHardSwishSigmoid(h)) continue;
    const x = h.input?.[0] as string;
    const hs = h.output?.[0] as string;
    const users = readers.get(hs) ?? [];
    const mul = users[0];
    if (users.length !== 1 || mul?.opType !== 'Mul') continue;
    const ins = mul.input ?? [];
    if (ins.length !== 2 || !ins.includes(x) || !ins.includes(hs)) continue;
    mul.opType = 'HardSwish';
    mul.input = [x];
    fused.add(h);
  }
  graph.node = graph.node.filter((n) => !fused.has(n));
  return fused.size;
}

/** Fuse the hard swishes where the graph can be raised to opset 14 (see above). */
function hardSwishes(model: onnxProto.onnx.ModelProto): void {
  const graph = model.graph as onnxProto.onnx.GraphProto;
  if (!graph.node.some(isHardSwishSigmoid)) return;
  if (toOpset14(model)) fuseHardSwish(graph);
}

/**
 * The recogniser (a float ONNX model's bytes, packaged or simplified) rewritten to read one grey
 * channel and hand out each time step's best class and probability, its hard swishes fused (see
 * above).
 */
export function recogniserForGrey(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as onnxProto.onnx.GraphProto;
  greyInput(graph);
  bestClassOutputs(graph);
  hardSwishes(model);
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Characters of the scripts an Indian English document is not printed in: Chinese, Japanese and
 * Korean, nearly all of the recogniser's 6,625 classes. A line read as one of them is misread.
 */
export const FOREIGN_SCRIPT =
  /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}|\p{Script=Bopomofo}/u;

/**
 * The classes of a CTC dictionary (class 0 the blank) a document in Latin script can hold: all but
 * those of {@link FOREIGN_SCRIPT} (some 300 of 6,625: ASCII, its full-width forms, symbols, accented
 * and Greek letters).
 */
export function latinClasses(dictionary: string[]): number[] {
  return dictionary.flatMap((ch, i) => (i === 0 || !FOREIGN_SCRIPT.test(ch) ? [i] : []));
}

/** A float constant's values and a setter for new ones (an initializer or a Constant node). */
function writableConstant(graph: onnxProto.onnx.GraphProto, name: string) {
  const c = floatConstant(graph, name);
  if (!c) return null;
  return {
    dims: (c.t.dims ?? []).map(Number),
    data: c.data,
    set(dims: number[], data: Float32Array) {
      c.t.dims = dims;
      c.t.rawData = new Uint8Array(data.buffer);
    },
  };
}

/**
 * The recogniser of {@link recogniserForGrey} with its CTC head reduced to the given classes
 * (dictionary indices, ascending, with the blank): the head's matrix keeps only their columns, the
 * softmax runs over them only, and the best class is mapped back to its dictionary index. The
 * head (a 6,625-column matrix product, its softmax and arg-max) took about a tenth of recognition;
 * a character outside the classes can no longer win, and the best class's probability is among the
 * kept classes.
 */
export function restrictClasses(bytes: Uint8Array, classes: number[]): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as onnxProto.onnx.GraphProto;
  const producer = (name: string) => graph.node.find((n) => n.output?.includes(name));
  const argMax = producer(`${REC_OUTPUTS.best}_i64`);
  const softmax = producer(argMax?.input?.[0] as string);
  const add = producer(softmax?.input?.[0] as string);
  const matMul = producer(add?.input?.[0] as string);
  const w = matMul?.opType === 'MatMul' ? writableConstant(graph, matMul.input?.[1] as string) : null;
  const b = add?.opType === 'Add' ? writableConstant(graph, add.input?.[1] as string) : null;
  const cast = graph.node.find((n) => n.opType === 'Cast' && n.output?.[0] === REC_OUTPUTS.best);
  if (
    softmax?.opType !== 'Softmax' ||
    !w ||
    !b ||
    !cast ||
    w.dims.length !== 2 ||
    b.data.length !== w.dims[1]
  )
    throw new Error('recogniser graph: no CTC head of a matrix product, a bias and a softmax');
  const [rows, cols] = w.dims as [number, number];
  const k = classes.length;
  const kept = new Float32Array(rows * k);
  for (let r = 0; r < rows; r++)
    for (let j = 0; j < k; j++) kept[r * k + j] = w.data[r * cols + (classes[j] as number)] as number;
  w.set([rows, k], kept);
  b.set(
    [k],
    Float32Array.from(classes, (c) => b.data[c] as number),
  );
  // The kept class's dictionary index, looked up by its place among the kept ones.
  const table = `${REC_OUTPUTS.best}_classes`;
  const indices = Int32Array.from(classes);
  graph.initializer.push(
    onnx.TensorProto.create({
      name: table,
      dataType: INT32,
      dims: [k],
      rawData: new Uint8Array(indices.buffer),
    }),
  );
  cast.opType = 'Gather';
  cast.input = [table, `${REC_OUTPUTS.best}_i64`];
  cast.attribute = [];
  return onnx.ModelProto.encode(model).finish();
}
