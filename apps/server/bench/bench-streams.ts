import { parseArgs } from 'node:util';
import { startBenchServer } from './bench-support.ts';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '15' },
    'streams-per-user': { type: 'string', default: '20' },
    seconds: { type: 'string', default: '8' },
  },
});
const USERS = Number(values.users);
const STREAMS_PER_USER = Number(values['streams-per-user']);
const SECONDS = Number(values.seconds);

const bench = await startBenchServer('streams', {
  RUN_JOBS: 'false',
  // Each bench user signs up from its own address (X-Forwarded-For), as people do.
  TRUST_PROXY: 'true',
});
const { server } = bench;

interface BenchUser {
  cookie: string;
  runId: string;
}

/** Signs up a user from its own address, onboards it, and starts a run that stays queued. */
async function createUserWithRun(index: number): Promise<BenchUser> {
  const address = `10.0.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  const headers = { 'content-type': 'application/json', origin: server.url, 'x-forwarded-for': address };
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: `Bench ${index}`,
      email: `bench-${index}-${Date.now()}@example.com`,
      password: 'correct horse battery staple',
    }),
  });
  if (!signUp.ok) throw new Error(`sign-up ${signUp.status}: ${await signUp.text()}`);
  const cookie = (signUp.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  const post = async (path: string, body: unknown) => {
    const form = body instanceof FormData;
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      // A form sets its own multipart content type.
      headers: form ? { origin: server.url, 'x-forwarded-for': address, cookie } : { ...headers, cookie },
      body: form ? body : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  await post('/api/organization', {
    orgName: `Bench Traders ${index}`,
    phone: '+91 98450 12345',
    orgType: 'pvt_ltd',
    address: '12 MG Road, Bengaluru',
  });
  const flow = await post('/api/workflows', {
    name: 'Inbox',
    types: ['INVOICE'],
    io: {
      input: { kind: 'upload', url: '', folderName: '' },
      output: { kind: 'xlsx', sheetId: '', sheetName: 'Bench' },
    },
  });
  const form = new FormData();
  form.append('files', new Blob(['%PDF-1.4 bench']), 'bench.pdf');
  await post(`/api/flows/${flow.id}/uploads`, form);
  const run = await post(`/api/flows/${flow.id}/runs`, {});
  return { cookie, runId: run.id };
}

/** Opens a progress stream and reads its first event; returns its status and a way to close it. */
async function openStream(user: BenchUser): Promise<{ status: number; close: () => void }> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/runs/${user.runId}/events`, {
    headers: { cookie: user.cookie },
    signal: controller.signal,
  });
  if (res.status === 200) await res.body!.getReader().read();
  else await res.text();
  return { status: res.status, close: () => controller.abort() };
}

/** `GET /api/workflows` from four clients for SECONDS: requests per second and latency percentiles. */
async function measureApi(user: BenchUser): Promise<{ rps: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/workflows`, { headers: { cookie: user.cookie } });
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return { rps: Math.round((latencies.length / SECONDS) * 10) / 10, p50: at(0.5), p99: at(0.99) };
}

const rows: string[][] = [['case', 'GET /api/workflows req/s', 'p50 ms', 'p99 ms', 'rss']];
const rss = () => `${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`;
try {
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i++) users.push(await createUserWithRun(i));
  const idle = await measureApi(users[0]!);
  rows.push(['no stream open', String(idle.rps), String(idle.p50), String(idle.p99), rss()]);

  const streams = await Promise.all(
    users.flatMap((user) => Array.from({ length: STREAMS_PER_USER }, () => openStream(user))),
  );
  const opened = streams.filter((s) => s.status === 200).length;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const loaded = await measureApi(users[0]!);
  rows.push([
    `${opened} streams open (${USERS} users × ${STREAMS_PER_USER})`,
    String(loaded.rps),
    String(loaded.p50),
    String(loaded.p99),
    rss(),
  ]);
  for (const s of streams) s.close();

  await new Promise((resolve) => setTimeout(resolve, 1000));
  const greedy = await Promise.all(
    Array.from({ length: USERS * STREAMS_PER_USER }, () => openStream(users[0]!)),
  );
  const byStatus = new Map<number, number>();
  for (const s of greedy) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  const answers = [...byStatus].map(([status, n]) => `${n} × ${status}`).join(', ');
  const greedyApi = await measureApi(users[1] ?? users[0]!);
  rows.push([
    `one user asks for ${greedy.length} streams (${answers})`,
    String(greedyApi.rps),
    String(greedyApi.p50),
    String(greedyApi.p99),
    rss(),
  ]);
  for (const s of greedy) s.close();
} finally {
  await bench.close();
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
