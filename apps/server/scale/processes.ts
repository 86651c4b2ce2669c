import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The API entry (`npm start` without the web build) and the worker entry (`npm run worker`). */
export const entryPoints = {
  api: fileURLToPath(new URL('../src/main.ts', import.meta.url)),
  worker: fileURLToPath(new URL('../src/worker.ts', import.meta.url)),
} as const;

/** A Bahi process started as a real child (`node --import tsx <entry>`). */
export interface BahiProcess {
  name: string;
  child: ChildProcess;
  /** Port of its HTTP endpoints: the API port, or a worker's METRICS_PORT. */
  port: number;
  /** The last few KB it wrote to stdout/stderr (JSON log lines), shown when something times out. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** A TCP port nobody listens on right now (ask the OS, then release it). */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the API (`kind: 'api'`, PORT) or a worker (`kind: 'worker'`, METRICS_PORT) as a child process with
 * `env` over the parent's environment. Both listen on 127.0.0.1 so /healthz and /readyz can be polled.
 */
export async function startBahiProcess(
  name: string,
  kind: keyof typeof entryPoints,
  env: Record<string, string>,
): Promise<BahiProcess> {
  const port = await findFreePort();
  const ports =
    kind === 'api'
      ? { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, RUN_JOBS: env.RUN_JOBS ?? 'false' }
      : { METRICS_PORT: String(port) };
  const child = spawn(process.execPath, ['--import', 'tsx', entryPoints[kind]], {
    env: { ...process.env, HOST: '127.0.0.1', ...env, ...ports },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-6000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { name, child, port, output: () => tail, exited };
}

/** Polls `fn` every 250 ms until it returns a value (errors count as "not yet"); throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  explain: () => string = () => '',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${explain()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Waits until the process answers `/readyz` with 200 (database and queue reachable). */
export function waitUntilReady(proc: BahiProcess, timeoutMs: number): Promise<true> {
  return waitFor(
    `${proc.name} to be ready`,
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited`);
      const response = await fetch(`http://127.0.0.1:${proc.port}/readyz`);
      return response.status === 200 ? true : undefined;
    },
    timeoutMs,
    () => `${proc.name} output:\n${proc.output()}`,
  );
}

/** Sends SIGTERM (graceful) and waits for the exit; SIGKILL after `graceMs` if it hangs. */
export async function stopBahiProcess(proc: BahiProcess, graceMs = 15_000): Promise<number | string> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.exited;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  try {
    return await proc.exited;
  } finally {
    clearTimeout(timer);
  }
}
