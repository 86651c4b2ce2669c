/**
 * Time a recogniser graph on collected inputs (dev tool; `dev-rec-inputs.ts` collects them), one
 * thread, and with --profile print ONNX Runtime's per-operator time by operator type.
 *
 *   npx tsx packages/engine/dev/dev-rec-profile.ts INPUTS.bin [--model FILE.onnx] [--profile] [--pages 12]
 *
 * Default model: the provider's (int8 where the CPU has VNNI).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import ort from 'onnxruntime-node';
import { resolveModels } from '../src/ocr/paddle.ts';
import { latinClasses, recogniserForGrey, restrictClasses } from '../src/ocr/rec-graph.ts';
import { int8Recogniser } from '../src/ocr/rec-int8.ts';
import { simplifyOnnxModel } from '../src/ocr/simplify-graph.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: 'string' },
    profile: { type: 'boolean', default: false },
    pages: { type: 'string', default: '12' },
    repeat: { type: 'string', default: '1' },
    float: { type: 'boolean', default: false },
    save: { type: 'string' },
    outputs: { type: 'string' },
    // The provider's head over the Latin-script classes (default) or all of them.
    classes: { type: 'string', default: 'latin' },
  },
});
const raw = readFileSync(positionals[0] as string);
const inputs: Array<{ x: Float32Array; dims: number[] }> = [];
for (let at = 0; at < raw.length; ) {
  const dims = [...new Uint32Array(raw.buffer.slice(raw.byteOffset + at, raw.byteOffset + at + 16))];
  at += 16;
  const n = dims.reduce((a, b) => a * b, 1);
  const x = new Float32Array(raw.buffer.slice(raw.byteOffset + at, raw.byteOffset + at + n * 4));
  at += n * 4;
  inputs.push({ x, dims });
}
const files = resolveModels();
const built = values.float
  ? recogniserForGrey(simplifyOnnxModel(new Uint8Array(readFileSync(files.rec))).bytes)
  : (int8Recogniser(files.rec) as Uint8Array);
const dictionary = [
  '',
  ...readFileSync(files.keys, 'utf8')
    .split(/\r?\n/)
    .filter((k, i, a) => i < a.length - 1 || k),
  ' ',
];
const model = values.model
  ? new Uint8Array(readFileSync(values.model))
  : values.classes === 'latin'
    ? restrictClasses(built, latinClasses(dictionary))
    : built;
if (values.save) writeFileSync(values.save, model);
const session = await ort.InferenceSession.create(model, {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  enableProfiling: values.profile,
  profileFilePrefix: '/tmp/recmodel/prof',
  extra: {
    session: { intra_op: { allow_spinning: '0' }, ...(process.env.DAZ ? { set_denormal_as_zero: '1' } : {}) },
  },
});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const outs: unknown[] = [];
let best = Infinity;
for (let r = 0; r < Number(values.repeat); r++) {
  const c0 = cpu();
  for (const { x, dims } of inputs) {
    const o = await session.run({ [session.inputNames[0] as string]: new ort.Tensor('float32', x, dims) });
    if (r === 0 && values.outputs)
      outs.push(
        Object.fromEntries(Object.entries(o).map(([k, t]) => [k, Array.from(t.data as ArrayLike<number>)])),
      );
  }
  best = Math.min(best, cpu() - c0);
}
if (values.outputs) writeFileSync(values.outputs, JSON.stringify(outs));
console.log(
  `rec CPU-s per page: ${(best / Number(values.pages)).toFixed(3)} (${inputs.length} runs, best of ${values.repeat})`,
);
if (values.profile) {
  session.endProfiling();
  const prefix = `prof_`;
  const file = readdirSync('/tmp/recmodel')
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .map((f) => `/tmp/recmodel/${f}`)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] as string;
  const events = JSON.parse(readFileSync(file, 'utf8')) as Array<{
    cat: string;
    name: string;
    dur: number;
    args?: { op_name?: string };
  }>;
  const byOp = new Map<string, number>();
  const byNode = new Map<string, number>();
  let total = 0;
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const op = e.args?.op_name ?? '?';
    byOp.set(op, (byOp.get(op) ?? 0) + e.dur);
    const node = e.name.replace(/_kernel_time$/, '');
    byNode.set(`${op} ${node}`, (byNode.get(`${op} ${node}`) ?? 0) + e.dur);
    total += e.dur;
  }
  const pages = Number(values.pages);
  console.log(`kernel time per page ${(total / 1e6 / pages).toFixed(3)} s`);
  for (const [op, us] of [...byOp].sort((a, b) => b[1] - a[1]))
    console.log(`  ${op.padEnd(24)} ${(us / 1e6 / pages).toFixed(4)} s  ${((100 * us) / total).toFixed(1)}%`);
  console.log('top nodes:');
  for (const [n, us] of [...byNode].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${n.padEnd(60)} ${(us / 1e6 / pages).toFixed(4)} s`);
}
