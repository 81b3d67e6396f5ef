// Retrieve playground: query with weights and fusion constant; hits with per-signal ranks and
// scores and the fused score explained; grounding, plan, timings; the stored trace; judge;
// thumbs on each hit record the operator's judgment, which an admin can train an adaptation on.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { get, ns as nsPath, post } from '../api.js';
import { Badge, ErrorBox, Loading, fmt, href, useAction, useLoad } from '../ui.js';
import { Adaptation, Judgments, Thumbs } from './feedback.js';

const SIGNALS = ['lexical', 'dense', 'graph'];
/** The API's fusion strategies: weighted RRF, RRF with BM25's weight set per query, convex. */
const FUSIONS = ['rrf', 'adaptive', 'convex'];

export function Retrieve({ ns, rest, can }) {
  const [form, setForm] = useState({ query: '', topK: 5, k: 60, fusion: 'adaptive', lexical: 1, dense: 1, graph: 1 });
  const [answer, setAnswer] = useState(null);
  const [traceId, setTraceId] = useState(rest[0] === 'trace' ? rest[1] : null);
  /** Bumped when a thumb records a judgment, so the list of judgments reloads. */
  const [judged, setJudged] = useState(0);
  const action = useAction();
  const set = (key) => (e) => setForm({ ...form, [key]: e.target.value });
  const submit = (e) => {
    e.preventDefault();
    action.run(async () => {
      const body = {
        query: form.query,
        topK: Number(form.topK),
        k: Number(form.k),
        fusion: form.fusion,
        explain: true,
        weights: { lexical: Number(form.lexical), dense: Number(form.dense), graph: Number(form.graph) },
      };
      setAnswer({ ...(await post(nsPath(ns, '/retrieve?trace=true'), body)), query: form.query });
      setTraceId(null);
    });
  };
  const explained = new Map((answer?.trace || []).map((c) => [c.chunkId, c]));
  return html`<section>
    <h2>Retrieve</h2>
    <form class="card" id="retrieve-form" onSubmit=${submit}>
      <input id="retrieve-query" class="wide" placeholder="a question an agent would ask" value=${form.query} onInput=${set('query')} />
      <div class="row">
        <label>topK <input type="number" min="1" max="100" value=${form.topK} onInput=${set('topK')} /></label>
        ${SIGNALS.map((s) => html`<label>${s} weight <input type="number" step="0.1" min="0" value=${form[s]} onInput=${set(s)} /></label>`)}
        <label>fusion <select id="retrieve-fusion" value=${form.fusion} onChange=${set('fusion')}>
          ${FUSIONS.map((f) => html`<option value=${f}>${f}</option>`)}
        </select></label>
        <label>RRF k <input type="number" min="1" value=${form.k} onInput=${set('k')} /></label>
        <button type="submit" disabled=${action.busy || !form.query.trim()}>Retrieve</button>
      </div>
    </form>
    <${ErrorBox} error=${action.error} />
    ${answer && html`<div id="retrieve-answer">
      <dl class="facts">
        <dt>grounding</dt><dd id="grounding">${fmt.num(answer.grounding)}</dd>
        <dt>plan</dt><dd><${Badge} kind=${answer.plan}>${answer.plan}</${Badge}></dd>
        <dt>timings</dt><dd>${Object.entries(answer.timings || {}).map(([k, v]) => `${k} ${fmt.num(v, 1)}`).join(' · ')}</dd>
        <dt>signals</dt><dd>${Object.entries(answer.signals || {}).map(([k, v]) => `${k}: ${v.status}, ${v.returned} returned`).join(' · ')}</dd>
        <dt>adaptation</dt><dd id="adaptation-applied">${answer.adaptation?.applied ? `version ${answer.adaptation.version} applied (dense weight × ${fmt.num(answer.adaptation.denseWeight)})` : 'none applied'}</dd>
        <dt>entities</dt><dd>${answer.entities.map((e) => e.name).join(', ') || '–'}</dd>
        <dt>trace</dt><dd><button id="open-trace" class="link" onClick=${() => setTraceId(answer.traceId)}>${answer.traceId}</button></dd>
      </dl>
      <table class="list" id="hits">
        <thead><tr><th>#</th><th>chunk</th><th>score</th>${SIGNALS.map((s) => html`<th>${s} rank / score</th>`)}<th>authority</th>${can('write') && html`<th>relevant?</th>`}</tr></thead>
        <tbody>${answer.hits.map((h, i) => html`<tr>
          <td>[${i + 1}]</td>
          <td><a href=${href(ns, 'knowledge', 'doc', h.documentId)}>${h.title}</a> › ${h.heading}<br/><code>${h.chunkId}</code>
            <div class="snippet">${h.text.slice(0, 240)}</div>
            ${explained.get(h.chunkId)?.explanation && html`<details class="explain"><summary>why this score</summary>${explained.get(h.chunkId).explanation}</details>`}</td>
          <td>${fmt.num(h.score, 4)}</td>
          ${SIGNALS.map((s) => html`<td>${h.ranks?.[s] ?? '–'} / ${fmt.num(h.scores?.[s])}</td>`)}
          <td><${Badge} kind=${h.authority}>${h.authority}</${Badge}></td>
          ${can('write') && html`<td><${Thumbs} key=${answer.traceId + h.chunkId} ns=${ns} query=${answer.query}
            target=${{ chunkId: h.chunkId }} onRecorded=${() => setJudged((n) => n + 1)} /></td>`}</tr>`)}
        </tbody></table>
      <${Judge} ns=${ns} query=${answer.query} traceId=${answer.traceId} />
    </div>`}
    ${traceId && html`<${Trace} ns=${ns} traceId=${traceId} />`}
    <${Judgments} ns=${ns} version=${judged} />
    ${can('admin') && html`<${Adaptation} ns=${ns} />`}
  </section>`;
}

function Trace({ ns, traceId }) {
  const state = useLoad(() => get(nsPath(ns, `/traces/${encodeURIComponent(traceId)}`)), [ns, traceId]);
  const t = state.data;
  return html`<section class="card" id="trace">
    <h3>Stored trace <code>${traceId}</code></h3>
    <${Loading} state=${state} />
    ${t && html`<p>“${t.query}” · grounding ${fmt.num(t.grounding)} · plan ${t.plan} · ${t.trace.length} candidates · ${fmt.time(t.createdAt)}</p>
      <table class="list"><thead><tr><th>chunk</th><th>fused</th>${SIGNALS.map((s) => html`<th>${s}</th>`)}<th>selected</th></tr></thead>
      <tbody>${t.trace.map((c) => html`<tr class=${c.selected ? 'selected' : ''}>
        <td><code>${c.chunkId}</code>${c.title ? html`<br/>${c.title} › ${c.heading}` : ''}</td>
        <td>${fmt.num(c.fused, 4)}</td>
        ${SIGNALS.map((s) => html`<td>${c.ranks?.[s] ?? '–'} / ${fmt.num(c.scores?.[s])}</td>`)}
        <td>${c.selected ? '✓' : ''}</td></tr>`)}</tbody></table>`}
  </section>`;
}

function Judge({ ns, query, traceId }) {
  const [answer, setAnswer] = useState('');
  const [verdict, setVerdict] = useState(null);
  const action = useAction();
  const submit = (e) => {
    e.preventDefault();
    action.run(async () => setVerdict(await post(nsPath(ns, '/judge'), { query, answer, traceId })));
  };
  return html`<form class="card" id="judge" onSubmit=${submit}>
    <h3>Judge an answer against this trace</h3>
    <textarea id="judge-answer" rows="3" placeholder="an answer citing hits as [1], [2]…" value=${answer} onInput=${(e) => setAnswer(e.target.value)}></textarea>
    <button type="submit" disabled=${action.busy || !answer.trim()}>Judge</button>
    <${ErrorBox} error=${action.error} />
    ${verdict && html`<div id="verdict">
      <p><${Badge} kind=${verdict.grounded ? 'ok' : 'bad'}>${verdict.grounded ? 'grounded' : 'not grounded'}</${Badge}>
        citation coverage <span id="coverage">${fmt.num(verdict.citationCoverage)}</span> · contradiction rate ${fmt.num(verdict.contradictionRate)} · policy compliance ${fmt.num(verdict.policyCompliance)}</p>
      ${(verdict.violations || []).length > 0 && html`<ul id="violations">${verdict.violations.map((v) => html`<li class="bad">policy ${v.rule}: ${v.detail}</li>`)}</ul>`}
      <ul>${(verdict.claims || []).map((c) => html`<li class=${c.supported ? 'ok' : 'bad'}>${c.text}
        <span class="muted">${c.supported ? 'supported' : 'unsupported'}${c.contradicted ? ', contradicted' : ''}</span></li>`)}</ul>
    </div>`}
  </form>`;
}
