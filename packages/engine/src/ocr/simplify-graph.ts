import onnxProto from 'onnx-proto';

/**
 * Load-time simplification of the PP-OCR models' ONNX graphs. PaddlePaddle's export follows every
 * convolution with a scale-and-shift (a frozen batch norm, or PP-LCNet's learnable scalar Mul + Add)
 * and writes each hardswish as four operations (Add, Clip, Mul, Div); ONNX Runtime fuses none of
 * these, so each costs a pass over a full feature map. Rewritten here, with the same arithmetic up to
 * float rounding:
 * - a scale-and-shift after a convolution goes into its weights and bias;
 * - a scalar scale-and-shift before a convolution goes into its weights (and its bias when the
 *   convolution has no padding, where every input pixel is a shifted one);
 * - x · clip(x + 3, 0, 6) / 6 becomes x · HardSigmoid(x) (α = 1/6, β = 0.5).
 * Transposed convolutions (DBNet's upsampling head) take the scale-and-shift after them too.
 * (Rewriting those whose kernel is their stride as a 1 × 1 convolution and a DepthToSpace measured
 * no faster: the DepthToSpace costs what the transposed convolution's col2im did.)
 */

const { onnx } = onnxProto;
type NodeProto = onnxProto.onnx.INodeProto;
type TensorProto = onnxProto.onnx.ITensorProto;

/** What {@link simplifyOnnxModel} rewrote. */
export interface SimplifyReport {
  /** Scale-and-shift operations folded into convolutions. */
  folded: number;
  /** Of those, the ones folded into transposed convolutions. */
  transposedFolded: number;
  /** Four-operation hardswishes turned into HardSigmoid and Mul. */
  hardswish: number;
  /** Nodes before and after (constants included). */
  nodesBefore: number;
  nodesAfter: number;
}

/** A constant float tensor of the graph. */
interface Const {
  dims: number[];
  data: Float32Array;
}

const FLOAT = 1;

function readTensor(t: TensorProto | null | undefined): Const | null {
  if (!t || t.dataType !== FLOAT) return null;
  const dims = (t.dims ?? []).map(Number);
  const size = dims.reduce((a, d) => a * d, 1);
  let data: Float32Array;
  if (t.rawData && t.rawData.length > 0) {
    // Copied: the raw bytes need not be 4-byte aligned inside the model's buffer.
    data = new Float32Array(new Uint8Array(t.rawData).buffer);
  } else data = Float32Array.from(t.floatData ?? []);
  return data.length === size ? { dims, data } : null;
}

function writeTensor(name: string, c: Const): TensorProto {
  return onnx.TensorProto.create({
    name,
    dims: c.dims,
    dataType: FLOAT,
    rawData: new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength),
  });
}

function attr(node: NodeProto, name: string) {
  return node.attribute?.find((a) => a.name === name);
}

/**
 * Simplify an ONNX model (bytes of a ModelProto) as described above; returns the new model's bytes
 * and what was rewritten. Patterns that do not match exactly are left as they are.
 */
export function simplifyOnnxModel(bytes: Uint8Array): { bytes: Uint8Array; report: SimplifyReport } {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as onnxProto.onnx.GraphProto;
  const nodes = graph.node as NodeProto[];
  const nodesBefore = nodes.length;
  const consts = new Map<string, Const>();
  for (const t of graph.initializer ?? []) {
    const c = readTensor(t);
    if (c && t.name) consts.set(t.name, c);
  }
  for (const n of nodes)
    if (n.opType === 'Constant') {
      const c = readTensor(attr(n, 'value')?.t);
      if (c && n.output?.[0]) consts.set(n.output[0], c);
    }
  const graphOutputs = new Set((graph.output ?? []).map((o) => o.name as string));
  const ctx: Ctx = { nodes, consts, graphOutputs, removed: new Set(), added: new Map(), serial: 0 };
  let folded = 0;
  let hardswish = 0;
  let transposedFolded = 0;
  for (const n of nodes) {
    if (ctx.removed.has(n)) continue;
    if (n.opType === 'Conv') folded += foldAfterConv(ctx, n) + foldBeforeConv(ctx, n);
    else if (n.opType === 'ConvTranspose') transposedFolded += foldAfterConv(ctx, n);
    else if (n.opType === 'Add' && rewriteHardswish(ctx, n)) hardswish++;
  }
  graph.node = nodes.filter((n) => !ctx.removed.has(n));
  // Constants nothing reads any more (the weights that were replaced) are dropped.
  const used = new Set(graph.node.flatMap((n) => n.input ?? []));
  for (const o of graphOutputs) used.add(o);
  graph.node = graph.node.filter((n) => n.opType !== 'Constant' || used.has(n.output?.[0] as string));
  graph.initializer = [
    ...(graph.initializer ?? []).filter((t) => used.has(t.name as string)),
    ...[...ctx.added].map(([name, c]) => writeTensor(name, c)),
  ];
  return {
    bytes: onnx.ModelProto.encode(model).finish(),
    report: {
      folded: folded + transposedFolded,
      transposedFolded,
      hardswish,
      nodesBefore,
      nodesAfter: graph.node.length,
    },
  };
}

interface Ctx {
  nodes: NodeProto[];
  consts: Map<string, Const>;
  graphOutputs: Set<string>;
  removed: Set<NodeProto>;
  /** New constant tensors, written as initializers. */
  added: Map<string, Const>;
  serial: number;
}

/** Nodes reading a tensor (none for a graph output: it must stay as it is). */
function readers(ctx: Ctx, name: string): NodeProto[] | null {
  if (ctx.graphOutputs.has(name)) return null;
  return ctx.nodes.filter((n) => !ctx.removed.has(n) && n.input?.includes(name));
}

/** The one node reading `name`, when exactly one does. */
function soleReader(ctx: Ctx, name: string): NodeProto | null {
  const r = readers(ctx, name);
  return r?.length === 1 ? (r[0] as NodeProto) : null;
}

function producer(ctx: Ctx, name: string): NodeProto | null {
  return ctx.nodes.find((n) => !ctx.removed.has(n) && n.output?.includes(name)) ?? null;
}

/** A binary node's constant operand and its other input (either order). */
function constOperand(ctx: Ctx, n: NodeProto): { c: Const; other: string } | null {
  const [a, b] = n.input ?? [];
  if (!a || !b || n.input?.length !== 2) return null;
  const ca = ctx.consts.get(a);
  const cb = ctx.consts.get(b);
  if (ca && !cb) return { c: ca, other: b };
  if (cb && !ca) return { c: cb, other: a };
  return null;
}

/** Per-output-channel values of a constant broadcast against an NCHW map of `channels`, or null. */
function perChannel(c: Const, channels: number): Float64Array | null {
  if (c.data.length === 1) return new Float64Array(channels).fill(c.data[0] as number);
  if (c.data.length !== channels) return null;
  // [C], [C,1,1] or [1,C,1,1]: the channel axis must be the one of length C, third from the end.
  const d = c.dims;
  const ok = d.length === 1 || (d.length >= 3 && d.at(-3) === channels && d.at(-1) === 1 && d.at(-2) === 1);
  return ok ? Float64Array.from(c.data) : null;
}

/**
 * Output channels of a convolution's weights: their first axis, or a transposed convolution's second
 * (only ungrouped ones are rewritten).
 */
function outChannels(conv: NodeProto, w: Const): number | null {
  if (conv.opType !== 'ConvTranspose') return w.dims[0] as number;
  return Number(attr(conv, 'group')?.i ?? 1) === 1 ? (w.dims[1] as number) : null;
}

/** The weights' index of output channel `o`'s `j`-th value (of `per`), for either kind of convolution. */
function weightIndex(conv: NodeProto, w: Const, o: number, j: number, per: number): number {
  if (conv.opType !== 'ConvTranspose') return o * per + j;
  // [in, out, kh, kw]: output channel o's values are in every input channel's block.
  const k = (w.dims[2] as number) * (w.dims[3] as number);
  const out = w.dims[1] as number;
  return (Math.floor(j / k) * out + o) * k + (j % k);
}

/** A convolution's weights and bias (zeros when it has none), copied for rewriting. */
function convParams(ctx: Ctx, conv: NodeProto): { w: Const; b: Float32Array } | null {
  const w = ctx.consts.get(conv.input?.[1] as string);
  if (w?.dims.length !== 4) return null;
  const out = outChannels(conv, w);
  if (out === null) return null;
  const biasName = conv.input?.[2];
  const bias = biasName ? ctx.consts.get(biasName) : undefined;
  if (biasName && (!bias || bias.data.length !== out)) return null;
  return {
    w: { dims: w.dims, data: Float32Array.from(w.data) },
    b: bias ? Float32Array.from(bias.data) : new Float32Array(out),
  };
}

function setConvParams(ctx: Ctx, conv: NodeProto, p: { w: Const; b: Float32Array }): void {
  // A convolution rewritten twice (after, then before) keeps only its last tensors.
  for (const name of conv.input?.slice(1) ?? []) ctx.added.delete(name);
  const id = ctx.serial++;
  const wName = `simplified_${id}_w`;
  const bName = `simplified_${id}_b`;
  ctx.added.set(wName, p.w);
  ctx.added.set(bName, { dims: [p.b.length], data: p.b });
  ctx.consts.set(wName, p.w);
  ctx.consts.set(bName, { dims: [p.b.length], data: p.b });
  conv.input = [conv.input?.[0] as string, wName, bName];
}

/**
 * Fold the chain of BatchNormalization / constant Mul / constant Add that follows a convolution
 * (each the only reader of the one before) into its weights and bias.
 */
function foldAfterConv(ctx: Ctx, conv: NodeProto): number {
  const p = convParams(ctx, conv);
  if (!p) return 0;
  const out = outChannels(conv, p.w) as number;
  const per = p.w.data.length / out;
  let n = 0;
  for (;;) {
    const next = soleReader(ctx, conv.output?.[0] as string);
    if (!next || next.input?.[0] === undefined) break;
    let scale: Float64Array | null = null;
    let shift: Float64Array | null = null;
    if (
      next.opType === 'BatchNormalization' &&
      next.input?.[0] === conv.output?.[0] &&
      next.output?.length === 1
    ) {
      const [g, beta, mean, variance] = (next.input ?? []).slice(1).map((name) => ctx.consts.get(name));
      const eps = attr(next, 'epsilon')?.f ?? 1e-5;
      if (!g || !beta || !mean || !variance) break;
      const s = perChannel(g, out);
      const bt = perChannel(beta, out);
      const m = perChannel(mean, out);
      const v = perChannel(variance, out);
      if (!s || !bt || !m || !v) break;
      scale = s.map((x, i) => x / Math.sqrt((v[i] as number) + eps));
      shift = bt.map((x, i) => x - (m[i] as number) * (scale as Float64Array)[i]!);
    } else if (next.opType === 'Mul' || next.opType === 'Add') {
      const k = constOperand(ctx, next);
      const values = k && k.other === conv.output?.[0] ? perChannel(k.c, out) : null;
      if (!values) break;
      if (next.opType === 'Mul') scale = values;
      else shift = values;
    } else break;
    for (let o = 0; o < out; o++) {
      const s = scale ? (scale[o] as number) : 1;
      if (scale)
        for (let j = 0; j < per; j++) {
          const at = weightIndex(conv, p.w, o, j, per);
          p.w.data[at] = (p.w.data[at] as number) * s;
        }
      p.b[o] = (p.b[o] as number) * s + (shift ? (shift[o] as number) : 0);
    }
    conv.output = [next.output?.[0] as string];
    ctx.removed.add(next);
    n++;
  }
  if (n) setConvParams(ctx, conv, p);
  return n;
}

/**
 * Fold a scalar Mul (a), optionally followed by a scalar Add (b), that feeds a convolution alone:
 * conv(a·x + b) = conv_{a·W}(x) + b·ΣW. The shift goes into the bias only when the convolution has
 * no padding (a padded border would see zeros, not b); otherwise it stays as an Add of b / a.
 */
function foldBeforeConv(ctx: Ctx, conv: NodeProto): number {
  const input = conv.input?.[0] as string;
  let add = producer(ctx, input);
  let shift = 0;
  if (add?.opType === 'Add') {
    const k = constOperand(ctx, add);
    if (k?.c.data.length !== 1 || soleReader(ctx, input) !== conv) return 0;
    shift = k.c.data[0] as number;
  } else add = null;
  const mulOut = add ? (constOperand(ctx, add) as { other: string }).other : input;
  const mul = producer(ctx, mulOut);
  if (mul?.opType !== 'Mul' || soleReader(ctx, mulOut) !== (add ?? conv)) return 0;
  const k = constOperand(ctx, mul);
  if (k?.c.data.length !== 1 || k.c.data[0] === 0) return 0;
  const a = k.c.data[0] as number;
  const p = convParams(ctx, conv);
  if (!p) return 0;
  const pads = attr(conv, 'pads')?.ints?.map(Number) ?? [];
  const padded = pads.some((v) => v !== 0) || (attr(conv, 'auto_pad')?.s?.length ?? 0) > 0;
  const out = p.w.dims[0] as number;
  const per = p.w.data.length / out;
  for (let o = 0; o < out; o++) {
    let sum = 0;
    for (let j = o * per; j < (o + 1) * per; j++) {
      sum += p.w.data[j] as number;
      p.w.data[j] = (p.w.data[j] as number) * a;
    }
    if (add && !padded) p.b[o] = (p.b[o] as number) + shift * sum;
  }
  setConvParams(ctx, conv, p);
  ctx.removed.add(mul);
  if (!add || !padded) {
    if (add) ctx.removed.add(add);
    conv.input = [k.other, ...(conv.input?.slice(1) ?? [])];
    return add ? 2 : 1;
  }
  // Padded: x + b / a, then the scaled convolution.
  const name = `simplified_${ctx.serial++}_shift`;
  const c = { dims: [] as number[], data: Float32Array.of(shift / a) };
  ctx.added.set(name, c);
  ctx.consts.set(name, c);
  add.input = [k.other, name];
  return 1;
}

/** Is `name` a constant holding the single value `v`? */
function isScalar(ctx: Ctx, name: string | undefined, v: number): boolean {
  const c = name ? ctx.consts.get(name) : undefined;
  return c?.data.length === 1 && c.data[0] === v;
}

/** x · clip(x + 3, 0, 6) / 6, starting from its Add: rewritten as x · HardSigmoid(x). */
function rewriteHardswish(ctx: Ctx, add: NodeProto): boolean {
  const k = constOperand(ctx, add);
  if (
    !k ||
    !isScalar(
      ctx,
      add.input?.find((i) => i !== k.other),
      3,
    )
  )
    return false;
  const x = k.other;
  const clip = soleReader(ctx, add.output?.[0] as string);
  if (clip?.opType !== 'Clip') return false;
  const lo = clip.input?.[1] ? isScalar(ctx, clip.input[1], 0) : attr(clip, 'min')?.f === 0;
  const hi = clip.input?.[2] ? isScalar(ctx, clip.input[2], 6) : attr(clip, 'max')?.f === 6;
  if (!lo || !hi) return false;
  const mul = soleReader(ctx, clip.output?.[0] as string);
  if (mul?.opType !== 'Mul' || !mul.input?.includes(x) || mul.input.length !== 2) return false;
  const div = soleReader(ctx, mul.output?.[0] as string);
  if (div?.opType !== 'Div' || div.input?.[0] !== mul.output?.[0] || !isScalar(ctx, div.input?.[1], 6))
    return false;
  add.opType = 'HardSigmoid';
  add.input = [x];
  add.attribute = [
    onnx.AttributeProto.create({ name: 'alpha', type: onnx.AttributeProto.AttributeType.FLOAT, f: 1 / 6 }),
    onnx.AttributeProto.create({ name: 'beta', type: onnx.AttributeProto.AttributeType.FLOAT, f: 0.5 }),
  ];
  mul.input = [x, add.output?.[0] as string];
  mul.output = [div.output?.[0] as string];
  ctx.removed.add(clip);
  ctx.removed.add(div);
  return true;
}
