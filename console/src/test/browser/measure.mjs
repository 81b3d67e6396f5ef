// Page render times of the console with a large namespace (docs/console.md#render-times).
// With CAIRN_POPULATE=1 it first fills CAIRN_NS through the API (CAIRN_DOCS documents,
// CAIRN_MEMORIES memories numbered from CAIRN_MEMORY_OFFSET; both bounded), then opens each page RUNS times in headless chromium
// and reports the median time from navigation to the page's content being drawn, with where
// the time went (see milestones).
// Environment: CAIRN_URL, CAIRN_ADMIN_TOKEN, CAIRN_NS (default bench).
import { chromium } from 'playwright-core';

const base = process.env.CAIRN_URL;
const token = process.env.CAIRN_ADMIN_TOKEN;
const ns = process.env.CAIRN_NS || 'bench';
const docs = Math.min(Number(process.env.CAIRN_DOCS ?? 5000), 20000);
const memories = Math.min(Number(process.env.CAIRN_MEMORIES ?? 10000), 50000);
const RUNS = 5;
if (!base || !token) throw new Error('CAIRN_URL and CAIRN_ADMIN_TOKEN are required');

async function api(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok && res.status !== 409) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** Runs {@code count} calls, {@code parallel} at a time, logging progress. */
async function fill(label, count, parallel, make) {
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await make(i);
      if ((i + 1) % 500 === 0) console.error(`${label}: ${i + 1}/${count} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

const SERVICES = ['billing-api', 'search-cluster', 'payments', 'ledger', 'auth-gateway', 'object-storage', 'kafka', 'scheduler'];
const TYPES = ['FACT', 'EVENT', 'PREFERENCE', 'DECISION', 'PROBLEM', 'TASK', 'PROCEDURE'];
const WORDS = ('restart rotate certificate vault replica leader backup restore index shard queue ' +
  'consumer lag latency timeout retry quota budget owner oncall weekend night deploy rollback canary ' +
  'dashboard alert disk memory cpu network dns proxy token secret schema migration tenant region ' +
  'cluster node pod cache eviction compaction snapshot audit invoice refund ledger payment customer ' +
  'support escalation runbook freeze window approval review friday morning').split(' ');
/** A distinct sentence per i (templated ones would be merged as near-duplicates). */
function sentence(i) {
  let x = (i + 1) * 2654435761 % 4294967296;
  const words = [];
  for (let k = 0; k < 12; k++) {
    x = (x * 1664525 + 1013904223) % 4294967296;
    words.push(WORDS[x % WORDS.length]);
  }
  return `Note ${i}: ${words.join(' ')}.`;
}

if (process.env.CAIRN_POPULATE === '1') {
  await api('POST', '/v1/namespaces', { name: ns });
  await fill('documents', docs, 4, (i) => {
    const s = SERVICES[i % SERVICES.length];
    return api('POST', `/v1/namespaces/${ns}/documents`, {
      id: `runbook-${i}`,
      title: `Runbook ${i}: ${s} step ${i % 97}`,
      format: 'markdown',
      content: `---\ntags: [${s}, bench]\nentities:\n  - {name: ${s}, kind: service}\ndepends_on: [${SERVICES[(i + 1) % SERVICES.length]}]\n---\n# Runbook ${i}\n\nWhen ${s} alert ${i} fires, check dashboard ${i % 31} and restart worker ${i % 13}.`,
    });
  });
  await fill('memories', memories, 4, (i) =>
    api('POST', `/v1/namespaces/${ns}/memories`, {
      type: TYPES[i % TYPES.length],
      userId: `user-${i % 50}`,
      content: sentence(Number(process.env.CAIRN_MEMORY_OFFSET || 0) + i),
      tags: [SERVICES[i % SERVICES.length]],
    }),
  );
}

// Each page and what shows it is drawn: its first rows, or for the map its first nodes laid out.
const PAGES = [
  ['knowledge', () => document.querySelector('#documents tbody tr')],
  ['memory', () => document.querySelector('#memories tbody tr')],
  ['proposals', () => document.querySelector('#proposal-status') && document.querySelector('.pager')],
  ['entities', () => /^[1-9]\d* nodes/.test(document.querySelector('#entity-counts')?.textContent || '')],
  ['conversations', () => document.querySelector('#conversations')],
  ['health', () => document.querySelector('#index-status tbody tr')],
];

const browser = await chromium.launch({
  executablePath: process.env.CAIRN_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
await page.goto(`${base}/console/`);
await page.evaluate((t) => sessionStorage.setItem('cairn.token', t), token);
const counts = {
  documents: (await api('GET', `/v1/namespaces/${ns}/documents?limit=1`)).total,
  memories: (await api('GET', `/v1/namespaces/${ns}/memories?limit=1`)).total,
};
/**
 * Where a page's time went, in ms since navigation start: the app's script, the token check,
 * each API call's answer (the last of a kind), lazily loaded chunks, and the page's User Timing
 * marks (the entity map marks fetched, library and laid-out).
 */
const milestones = () => {
  const out = {};
  for (const r of performance.getEntriesByType('resource')) {
    const u = new URL(r.name);
    const key = u.pathname.startsWith('/console/assets/')
      ? u.pathname.replace(/^.*\/([^/-]+)[^/]*$/, 'script $1')
      : u.pathname.replace(/^\/v1\/namespaces\/[^/]+/, '').replace(/\/entities\/[^/]+$/, '/entities/{id}');
    out[key] = Math.max(out[key] || 0, Math.round(r.responseEnd));
  }
  for (const m of performance.getEntriesByType('mark')) out['mark ' + m.name] = Math.round(m.startTime);
  return out;
};
/** CPU time of the top-level tasks on the page's renderer main thread, from the navigation on. */
function mainThreadCpuMs(events) {
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts);
  let sum = 0;
  const ends = new Map(); // per thread: where its last top-level task ended
  for (const e of tasks) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ts < (ends.get(thread) ?? 0)) continue; // nested in the task before
    sum += e.tdur || 0;
    ends.set(thread, e.ts + e.dur);
  }
  return Math.round(sum / 1000);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results = {};
for (const [id, drawn] of PAGES) {
  const times = [];
  const breakdowns = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto('about:blank');
    const started = Date.now();
    await page.goto(`${base}/console/#/${ns}/${id}`);
    await page.waitForFunction(drawn, null, { timeout: 30000, polling: 10 });
    times.push(Date.now() - started);
    breakdowns.push(await page.evaluate(milestones));
  }
  // The renderer's main thread CPU time for the same load (Chrome trace, tasks' thread time): what
  // the page costs whatever else the machine runs, where wall time grows with the machine's load.
  const cpu = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto('about:blank');
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
    await page.goto(`${base}/console/#/${ns}/${id}`);
    await page.waitForFunction(drawn, null, { timeout: 30000, polling: 10 });
    cpu.push(mainThreadCpuMs(JSON.parse((await browser.stopTracing()).toString()).traceEvents));
  }
  times.sort((a, b) => a - b);
  const breakdown = {};
  for (const key of new Set(breakdowns.flatMap(Object.keys))) {
    breakdown[key] = median(breakdowns.map((b) => b[key]).filter((x) => x !== undefined));
  }
  results[id] = {
    medianMs: times[Math.floor(RUNS / 2)],
    maxMs: times[RUNS - 1],
    medianMainThreadCpuMs: median(cpu),
    medianBreakdownMs: breakdown,
  };
}
await browser.close();
console.log(JSON.stringify({ namespace: ns, ...counts, runs: RUNS, pages: results }, null, 2));
