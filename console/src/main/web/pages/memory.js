// Memory: browse and filter; one memory with its status history and provenance and the
// lifecycle actions; a recall box showing the context exactly as an agent gets it.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { del, get, ns as nsPath, post, query } from '../api.js';
import { Badge, ErrorBox, Loading, Pager, fmt, go, href, useAction, useLoad } from '../ui.js';
import { Thumbs } from './feedback.js';

const TYPES = ['FACT', 'EVENT', 'PREFERENCE', 'DECISION', 'PROBLEM', 'COMMIT', 'RELATIONSHIP', 'TASK', 'PROCEDURE'];
const STATUSES = ['ACTIVE', 'STALE', 'SUPERSEDED', 'INVALIDATED', 'REJECTED'];
/** Score and components of each memory in this tab's last recalls (the API keeps no scores). */
const lastRecall = new Map();

/**
 * What each of recall's boosts (period, time, session, answer, burst, speaker, facet, judged,
 * brief) added to a memory's relevance, as the answer names them; the rest of the relevance is the
 * match.
 */
const boosts = (components) =>
  Object.entries(components.boosts || {})
    .map(([name, added]) => `${name} +${fmt.num(added)}`)
    .join(', ') || '–';

export function Memory({ ns, rest, can }) {
  if (rest[0] === 'mem' && rest[1]) return html`<${MemoryPage} ns=${ns} id=${rest[1]} can=${can} />`;
  return html`<section>
    <h2>Memory</h2>
    <${Recall} ns=${ns} can=${can} />
    ${can('write') && html`<${Remember} ns=${ns} />`}
    <${MemoryList} ns=${ns} />
  </section>`;
}

function MemoryList({ ns }) {
  const empty = { q: '', type: '', status: '', userId: '', agentId: '', tags: '', includeDisabled: true, includeDeleted: false };
  const [draft, setDraft] = useState(empty);
  const [filters, setFilters] = useState(empty);
  const [cursors, setCursors] = useState(['']);
  const cursor = cursors[cursors.length - 1];
  const list = useLoad(
    () => get(nsPath(ns, '/memories' + query({ ...filters, limit: 25, cursor }))),
    [ns, filters, cursor],
  );
  const set = (key) => (e) => setDraft({ ...draft, [key]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  return html`<div>
    <form class="row card" id="memory-filters" onSubmit=${(e) => { e.preventDefault(); setCursors(['']); setFilters(draft); }}>
      <input id="memory-q" placeholder="text" value=${draft.q} onInput=${set('q')} />
      <select value=${draft.type} onChange=${set('type')}><option value="">any type</option>${TYPES.map((t) => html`<option>${t}</option>`)}</select>
      <select value=${draft.status} onChange=${set('status')}><option value="">any status</option>${STATUSES.map((t) => html`<option>${t}</option>`)}</select>
      <input placeholder="user" value=${draft.userId} onInput=${set('userId')} size="10" />
      <input placeholder="agent" value=${draft.agentId} onInput=${set('agentId')} size="10" />
      <input placeholder="tags (a,b)" value=${draft.tags} onInput=${set('tags')} size="12" />
      <label><input type="checkbox" checked=${draft.includeDisabled} onChange=${set('includeDisabled')} /> disabled</label>
      <label><input type="checkbox" checked=${draft.includeDeleted} onChange=${set('includeDeleted')} /> deleted</label>
      <button type="submit">Filter</button>
    </form>
    <${Loading} state=${list} />
    ${list.data && html`<table class="list" id="memories">
      <thead><tr><th>content</th><th>type</th><th>status</th><th>user / agent</th><th>tags</th><th>created</th></tr></thead>
      <tbody>${list.data.items.map((m) => html`<tr class=${m.disabled || m.deleted ? 'dim' : ''}>
        <td><a href=${href(ns, 'memory', 'mem', m.id)}>${m.content.slice(0, 140)}</a></td>
        <td>${m.type}</td><td><${Badge} kind=${m.status}>${m.status}</${Badge}>${m.disabled ? ' disabled' : ''}${m.deleted ? ' deleted' : ''}</td>
        <td>${m.userId || '–'} / ${m.agentId || '–'}</td><td>${m.tags.join(', ')}</td><td>${fmt.time(m.createdAt)}</td></tr>`)}
      </tbody></table>
      <${Pager} answer=${list.data} cursors=${cursors} setCursors=${setCursors} />`}
  </div>`;
}

function Remember({ ns }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ type: 'FACT', content: '', userId: '', tags: '' });
  const action = useAction();
  const set = (key) => (e) => setForm({ ...form, [key]: e.target.value });
  const submit = (e) => {
    e.preventDefault();
    action.run(async () => {
      const body = { type: form.type, content: form.content };
      if (form.userId.trim()) body.userId = form.userId.trim();
      const tags = form.tags.split(',').map((t) => t.trim()).filter(Boolean);
      if (tags.length) body.tags = tags;
      const m = await post(nsPath(ns, '/memories'), body);
      go(ns, 'memory', 'mem', m.deduplicatedInto || m.id);
    });
  };
  if (!open) return html`<button id="open-remember" onClick=${() => setOpen(true)}>Write a memory…</button>`;
  return html`<form class="card" id="remember" onSubmit=${submit}>
    <h3>Write a memory</h3>
    <div class="row">
      <select id="remember-type" value=${form.type} onChange=${set('type')}>${TYPES.map((t) => html`<option>${t}</option>`)}</select>
      <input placeholder="user id (optional)" value=${form.userId} onInput=${set('userId')} />
      <input placeholder="tags (a,b)" value=${form.tags} onInput=${set('tags')} />
    </div>
    <textarea id="remember-content" rows="3" value=${form.content} onInput=${set('content')}></textarea>
    <button type="submit" disabled=${action.busy || !form.content.trim()}>Remember</button>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

function Recall({ ns, can }) {
  const [form, setForm] = useState({ query: '', userId: '', maxTokens: 3500 });
  const [answer, setAnswer] = useState(null);
  const action = useAction();
  const set = (key) => (e) => setForm({ ...form, [key]: e.target.value });
  const submit = (e) => {
    e.preventDefault();
    action.run(async () => {
      const body = { query: form.query, maxTokens: Number(form.maxTokens) };
      // an operator leaving the user empty means every user's memories, and says so
      if (form.userId.trim()) body.userId = form.userId.trim();
      else body.scope = 'namespace';
      const answer = await post(nsPath(ns, '/recall'), body);
      for (const scored of answer.memories) lastRecall.set(scored.memory.id, { ...scored, query: form.query });
      setAnswer({ ...answer, query: form.query });
    });
  };
  return html`<form class="card" id="recall" onSubmit=${submit}>
    <h3>Recall</h3>
    <div class="row">
      <input id="recall-query" class="wide" placeholder="what the agent is about to do" value=${form.query} onInput=${set('query')} />
      <input placeholder="user id (empty: all users)" value=${form.userId} onInput=${set('userId')} size="18" />
      <label>token budget <input type="number" min="1" value=${form.maxTokens} onInput=${set('maxTokens')} /></label>
      <button type="submit" disabled=${action.busy || !form.query.trim()}>Recall</button>
    </div>
    <${ErrorBox} error=${action.error} />
    ${answer && html`<div id="recall-answer">
      <p><strong>${answer.tokens}</strong> of ${form.maxTokens} tokens${answer.partial ? ' · partial (timed out)' : ''}</p>
      <pre class="context">${answer.context || '(empty context)'}</pre>
      <table class="list"><thead><tr><th>memory</th><th>score</th><th>relevance</th><th>of it, boosts</th><th>recency</th><th>type bonus</th><th>confidence</th><th>importance</th>${can('write') && html`<th>relevant?</th>`}</tr></thead>
      <tbody>${answer.memories.map((s) => html`<tr>
        <td><a href=${href(ns, 'memory', 'mem', s.memory.id)}>${s.memory.content.slice(0, 100)}</a></td>
        <td>${fmt.num(s.score)}</td><td>${fmt.num(s.components.relevance)}</td><td>${boosts(s.components)}</td><td>${fmt.num(s.components.recency)}</td>
        <td>${fmt.num(s.components.typeBonus)}</td><td>${fmt.num(s.components.confidence)}</td><td>${fmt.num(s.components.importance)}</td>
        ${can('write') && html`<td><${Thumbs} key=${answer.query + s.memory.id} ns=${ns} query=${answer.query} target=${{ memoryId: s.memory.id }} /></td>`}</tr>`)}</tbody></table>
    </div>`}
  </form>`;
}

function MemoryPage({ ns, id, can }) {
  const mem = useLoad(() => get(nsPath(ns, `/memories/${encodeURIComponent(id)}`)), [ns, id]);
  const [reason, setReason] = useState('');
  const action = useAction();
  const m = mem.data;
  if (!m) return html`<${Loading} state=${mem} />`;
  const path = nsPath(ns, `/memories/${encodeURIComponent(m.id)}`);
  const act = (verb) => () =>
    action.run(async () => {
      if (verb === 'delete') await del(path);
      else await post(`${path}/${verb}`, reason.trim() ? { reason: reason.trim() } : {});
      setReason('');
      if (verb === 'delete') go(ns, 'memory');
      else mem.reload();
    });
  return html`<section id="memory">
    <p><a href=${href(ns, 'memory')}>← Memories</a></p>
    <h2><${Badge} kind=${m.status}>${m.status}</${Badge}> ${m.type} memory</h2>
    <blockquote id="memory-content">${m.content}</blockquote>
    <dl class="facts">
      <dt>id</dt><dd><code>${m.id}</code></dd>
      <dt>layer</dt><dd>${m.layer}</dd>
      <dt>state</dt><dd id="memory-state">${m.disabled ? 'disabled' : 'enabled'}${m.deleted ? ', deleted' : ''}</dd>
      <dt>user / agent</dt><dd>${m.userId || '–'} / ${m.agentId || '–'}</dd>
      <dt>session / task</dt><dd>${m.sessionName || '–'} / ${m.taskName || '–'}${m.parentTask ? ` (in ${m.parentTask})` : ''}</dd>
      <dt>provenance</dt><dd>${m.source.kind}${m.source.reference ? ` · ${m.source.reference}` : ''}</dd>
      <dt>tags</dt><dd>${m.tags.join(', ') || '–'}</dd>
      <dt>confidence / importance</dt><dd>${fmt.num(m.confidence, 2)} / ${fmt.num(m.importance, 2)}</dd>
      <dt>conflict key</dt><dd>${m.conflictKey || '–'}</dd>
      <dt>created / expires</dt><dd>${fmt.time(m.createdAt)} / ${fmt.time(m.expiresAt)}</dd>
      <dt>recalled</dt><dd>${m.recalledCount} times${m.lastRecalledAt ? `, last ${fmt.time(m.lastRecalledAt)}` : ''}</dd>
    </dl>
    ${can('write') && !m.deleted && html`<div class="row card" id="memory-actions">
      <input id="memory-reason" placeholder="reason (kept in the history)" value=${reason} onInput=${(e) => setReason(e.target.value)} />
      ${m.disabled
        ? html`<button onClick=${act('enable')}>Enable</button>`
        : html`<button onClick=${act('disable')}>Disable</button>`}
      ${m.status !== 'INVALIDATED' && html`<button id="invalidate" class="danger" onClick=${act('invalidate')}>Invalidate</button>`}
      <button class="danger" onClick=${act('delete')}>Delete</button>
    </div>`}
    <${ErrorBox} error=${action.error} />
    ${lastRecall.has(m.id) && html`<h3>Last recall</h3>
      <p id="memory-score">for “${lastRecall.get(m.id).query}”: score ${fmt.num(lastRecall.get(m.id).score)} =
        relevance ${fmt.num(lastRecall.get(m.id).components.relevance)} (boosts: ${boosts(lastRecall.get(m.id).components)}),
        recency ${fmt.num(lastRecall.get(m.id).components.recency)},
        type bonus ${fmt.num(lastRecall.get(m.id).components.typeBonus)},
        confidence ${fmt.num(lastRecall.get(m.id).components.confidence)},
        importance ${fmt.num(lastRecall.get(m.id).components.importance)}</p>`}
    <h3>Status history</h3>
    <table class="list" id="transitions"><thead><tr><th>at</th><th>from</th><th>to</th><th>actor</th><th>reason</th></tr></thead>
      <tbody>${m.transitions.map((t) => html`<tr><td>${fmt.time(t.at)}</td><td>${t.from}</td><td>${t.to}</td><td>${t.actor}</td><td>${t.reason}</td></tr>`)}</tbody></table>
  </section>`;
}
