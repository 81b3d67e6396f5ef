// Health: the store check and each derived index's lag from /health, and request rate and mean latency per operation from the
// server's own Prometheus metrics (/metrics), sampled while the page is open and drawn with uPlot.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorBox, fmt } from '../ui.js';
import 'uplot/dist/uPlot.min.css';

const SAMPLE_MS = 2000;
const WINDOW = 150;
const OPERATIONS = ['retrieve', 'recall', 'judge', 'ingest', 'remember', 'extract', 'tool-call', 'mcp'];

/** Sums {@code cairn_operation_seconds_count/_sum} per operation (all statuses) from Prometheus text. */
export function parseRequests(text) {
  const out = {};
  const re = /^cairn_operation_seconds_(count|sum)\{([^}]*)\}\s+(\S+)/gm;
  for (const m of text.matchAll(re)) {
    const op = /operation="([^"]*)"/.exec(m[2])?.[1];
    if (!op) continue;
    out[op] ??= { count: 0, sum: 0 };
    out[op][m[1]] += Number(m[3]);
  }
  return out;
}

export function Health() {
  const [health, setHealth] = useState(null);
  const [error, setError] = useState(null);
  const [latest, setLatest] = useState({});
  const rateBox = useRef(null);
  const latencyBox = useRef(null);

  useEffect(() => {
    let plots = [];
    let timer;
    let previous = null;
    const series = { t: [], rate: OPERATIONS.map(() => []), latency: OPERATIONS.map(() => []) };
    const sample = async () => {
      try {
        const [h, m] = await Promise.all([
          fetch('/health').then((r) => r.json()),
          fetch('/metrics').then((r) => r.text()),
        ]);
        setHealth(h);
        const now = Date.now() / 1000;
        const counts = parseRequests(m);
        if (previous) {
          const dt = now - previous.t;
          series.t.push(now);
          OPERATIONS.forEach((op, i) => {
            const c = counts[op] || { count: 0, sum: 0 };
            const p = previous.counts[op] || { count: 0, sum: 0 };
            const n = c.count - p.count;
            series.rate[i].push(n / dt);
            series.latency[i].push(n > 0 ? ((c.sum - p.sum) / n) * 1000 : null);
          });
          if (series.t.length > WINDOW) {
            series.t.shift();
            series.rate.forEach((s) => s.shift());
            series.latency.forEach((s) => s.shift());
          }
          plots[0]?.setData([series.t, ...series.rate]);
          plots[1]?.setData([series.t, ...series.latency]);
        }
        previous = { t: now, counts };
        setLatest(counts);
      } catch (e) {
        setError(e);
      }
    };
    import('uplot').then(({ default: uPlot }) => {
      const colours = ['#1f77b4', '#2ca02c', '#d62728', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
      const options = (title, unit) => ({
        title, width: 560, height: 220,
        // the last WINDOW samples' span, so the first points are not stretched over years
        scales: { x: { time: true, range: (u, min, max) => {
          const end = max ?? Date.now() / 1000;
          return [end - (WINDOW * SAMPLE_MS) / 1000, end];
        } } },
        series: [{}, ...OPERATIONS.map((op, i) => ({ label: op, stroke: colours[i], spanGaps: true, value: (u, v) => (v == null ? '–' : `${v.toFixed(2)} ${unit}`) }))],
        axes: [{}, { label: unit }],
      });
      const empty = [[], ...OPERATIONS.map(() => [])];
      plots = [
        new uPlot(options('requests per second', 'req/s'), empty, rateBox.current),
        new uPlot(options('mean latency', 'ms'), empty, latencyBox.current),
      ];
      sample();
      timer = setInterval(sample, SAMPLE_MS);
    }, setError);
    return () => {
      clearInterval(timer);
      plots.forEach((p) => p.destroy());
    };
  }, []);

  return html`<section>
    <h2>Health</h2>
    <${ErrorBox} error=${error} />
    ${health && html`<dl class="facts" id="health">
      <dt>status</dt><dd>${health.status}</dd>
      <dt>store</dt><dd>${health.checks.store.kind} · ${health.checks.store.status}${health.checks.store.reason ? ` · ${health.checks.store.reason}` : ''}</dd>
      <dt>last change</dt><dd>${health.checks.store.lastChangeSeq ?? '–'}</dd>
    </dl>
    <table class="list" id="index-status"><thead><tr><th>derived index</th><th>changes behind</th></tr></thead>
      <tbody>${Object.entries(health.checks.store.indexLag || {}).map(([name, lag]) => html`<tr class=${lag > 0 ? 'flagged' : ''}><td>${name}</td><td>${lag}</td></tr>`)}</tbody></table>`}
    <div class="charts"><div id="rate-chart" ref=${rateBox}></div><div id="latency-chart" ref=${latencyBox}></div></div>
    <h3>Since the server started</h3>
    <table class="list" id="operation-totals"><thead><tr><th>operation</th><th>requests</th><th>mean latency</th></tr></thead>
      <tbody>${Object.entries(latest).map(([op, c]) => html`<tr><td>${op}</td><td>${c.count}</td><td>${fmt.num(c.count ? (c.sum / c.count) * 1000 : null, 1)} ms</td></tr>`)}</tbody></table>
  </section>`;
}
