// Feedback and adaptation: an operator's thumbs on a retrieve hit or a recalled memory become
// judgments (POST feedback, source "operator"); the namespace's recent judgments; for an admin,
// the adaptation trained from them, with train and roll back.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { del, get, ns as nsPath, post, query } from '../api.js';
import { Badge, ErrorBox, Loading, fmt, useAction, useLoad } from '../ui.js';

/** Grades a thumb records: up (✓) is relevant, the API's default grade; down (✗) is judged not relevant. */
const GRADES = { up: 1, down: 0 };

/**
 * Thumbs up / down on one target ({@code {chunkId}}, {@code {memoryId}}...) for {@code query};
 * once recorded it says so. {@code onRecorded} lets a list of judgments refresh.
 */
export function Thumbs({ ns, query: text, target, onRecorded }) {
  const [recorded, setRecorded] = useState(null);
  const action = useAction();
  const judge = (thumb) => () =>
    action.run(async () => {
      const answer = await post(nsPath(ns, '/feedback'), {
        query: text,
        relevant: [{ ...target, grade: GRADES[thumb] }],
        source: 'operator',
      });
      setRecorded({ thumb, id: answer.items[0].id });
      onRecorded?.();
    });
  return html`<span class="thumbs">
    <button type="button" class=${`thumb-up${recorded?.thumb === 'up' ? ' on' : ''}`} title="relevant to this query"
      disabled=${action.busy} onClick=${judge('up')}>✓</button>
    <button type="button" class=${`thumb-down${recorded?.thumb === 'down' ? ' on' : ''}`} title="not relevant to this query"
      disabled=${action.busy} onClick=${judge('down')}>✗</button>
    ${recorded && html`<span class="recorded muted" title=${recorded.id}>recorded</span>`}
    ${action.error && html`<${ErrorBox} error=${action.error} />`}
  </span>`;
}

/** The namespace's judgments, newest first. */
export function Judgments({ ns, version }) {
  const list = useLoad(() => get(nsPath(ns, '/feedback' + query({ limit: 10 }))), [ns, version]);
  const target = (j) =>
    j.chunkId ? `chunk ${j.chunkId}` : j.documentId ? `document ${j.documentId}` : `memory ${j.memoryId}`;
  return html`<section class="card" id="judgments">
    <h3>Recent judgments <span class="muted">${list.data ? `· ${list.data.total} in all` : ''}</span></h3>
    <${Loading} state=${list} />
    ${list.data && list.data.items.length === 0 && html`<p class="muted">No judgments yet: thumbs on a hit record one.</p>`}
    ${list.data && list.data.items.length > 0 && html`<table class="list">
      <thead><tr><th>query</th><th>target</th><th>grade</th><th>source</th><th>when</th></tr></thead>
      <tbody>${list.data.items.map((j) => html`<tr data-judgment=${j.id}>
        <td>${j.query}</td><td><code>${target(j)}</code></td><td>${j.grade}</td><td>${j.source}</td><td>${fmt.time(j.createdAt)}</td></tr>`)}</tbody>
    </table>`}
  </section>`;
}

/** The namespace's adaptation (admin): the active version, every version's report, train, roll back. */
export function Adaptation({ ns }) {
  const state = useLoad(() => get(nsPath(ns, '/adaptation')), [ns]);
  const [holdOut, setHoldOut] = useState(0.2);
  const action = useAction();
  const change = (fn) => () => action.run(async () => { await fn(); state.reload(); });
  const s = state.data;
  return html`<section class="card" id="adaptation">
    <h3>Adaptation</h3>
    <p class="muted">Trained from this namespace's judgments; activated only when it beats the current ranking on the held-back queries.</p>
    <${Loading} state=${state} />
    ${s && html`<p id="adaptation-active">${s.active
      ? html`<${Badge} kind="ok">active</${Badge}> version ${s.active.version} · dense weight × ${fmt.num(s.active.denseWeight)}`
      : html`<span class="muted">No adaptation is active: retrieve ranks as trained.</span>`}</p>`}
    <div class="row">
      <label>hold out <input type="number" min="0.05" max="0.9" step="0.05" value=${holdOut} onInput=${(e) => setHoldOut(e.target.value)} /></label>
      <button id="train" disabled=${action.busy} onClick=${change(() => post(nsPath(ns, '/adaptation/train'), { holdOut: Number(holdOut) }))}>Train</button>
      ${s?.active && html`<button id="rollback" class="danger" disabled=${action.busy} onClick=${change(() => del(nsPath(ns, '/adaptation')))}>Roll back</button>`}
      ${action.busy && html`<span class="muted">training…</span>`}
    </div>
    <${ErrorBox} error=${action.error} />
    ${s && s.versions.length > 0 && html`<table class="list" id="adaptation-versions">
      <thead><tr><th>version</th><th>state</th><th>replaces</th><th>nDCG@10 held back: before → after</th><th>queries train / held back</th><th>judgments</th><th>dense weight</th><th>created</th></tr></thead>
      <tbody>${s.versions.map((v) => html`<tr class=${v.state === 'active' ? 'selected' : ''}>
        <td>${v.version}</td><td><${Badge} kind=${v.state === 'active' ? 'ok' : v.state}>${v.state}</${Badge}></td><td>${v.replaces || '–'}</td>
        <td>${fmt.num(v.report?.baselineNdcg10)} → ${fmt.num(v.report?.adaptedNdcg10)}</td>
        <td>${v.report?.trainQueries ?? '–'} / ${v.report?.heldOutQueries ?? '–'}</td><td>${v.report?.judgments ?? '–'}</td>
        <td>× ${fmt.num(v.denseWeight)}</td><td>${fmt.time(v.createdAt)}</td></tr>`)}</tbody>
    </table>`}
  </section>`;
}
