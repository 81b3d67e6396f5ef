// Proposals: the review queue (pending first), accept / reject with a note, apply, archive; a
// memory proposal shows the memory it would create (type, content, the Tags: line's tags).
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { get, ns as nsPath, post, query } from '../api.js';
import { Badge, ErrorBox, Loading, Pager, fmt, href, useAction, useLoad } from '../ui.js';

const STATUSES = ['pending', 'accepted', 'rejected', 'applied', 'archived', ''];

export function Proposals({ ns, can, me }) {
  const [status, setStatus] = useState('pending');
  const [cursors, setCursors] = useState(['']);
  const cursor = cursors[cursors.length - 1];
  const list = useLoad(
    () => get(nsPath(ns, '/proposals' + query({ status, limit: 20, cursor }))),
    [ns, status, cursor],
  );
  return html`<section>
    <h2>Proposals</h2>
    <div class="tabs" id="proposal-status">${STATUSES.map((s) => html`<button
      class=${s === status ? 'active' : ''} onClick=${() => { setCursors(['']); setStatus(s); }}>${s || 'all'}</button>`)}</div>
    <${Loading} state=${list} />
    ${list.data && list.data.items.length === 0 && html`<p class="muted">No ${status} proposals.</p>`}
    ${list.data && list.data.items.map((p) => html`<${Proposal} key=${p.id} ns=${ns} p=${p} can=${can} me=${me} onChange=${list.reload} />`)}
    <${Pager} answer=${list.data} cursors=${cursors} setCursors=${setCursors} />
  </section>`;
}

function Proposal({ ns, p, can, me, onChange }) {
  const [note, setNote] = useState('');
  const action = useAction();
  const path = nsPath(ns, `/proposals/${encodeURIComponent(p.id)}`);
  const run = (fn) => () => action.run(async () => { await fn(); onChange(); });
  const review = (status) => run(() => post(`${path}/review`, { status, reviewer: me.name, reviewNote: note.trim() || undefined }));
  const reviewer = can('review');
  return html`<article class="card proposal" data-proposal=${p.id}>
    <header><${Badge} kind=${p.status}>${p.status}</${Badge}> <strong>${p.title}</strong>
      <span class="muted"> · ${p.type}${p.agentName ? ` · by ${p.agentName}` : ''}${p.taskName ? ` · task ${p.taskName}` : ''} · ${fmt.time(p.createdAt)}</span>
      ${p.flagged && html` <${Badge} kind="bad">flagged</${Badge}>`}</header>
    <pre class="description">${p.description}</pre>
    ${p.type === 'memory'
      ? html`<div class="would-create"><span class="muted">Applying creates a ${p.memoryType} memory${p.suggestedTags?.length ? html` tagged <strong>${p.suggestedTags.join(', ')}</strong>` : ''}:</span>
          <blockquote>${p.content}</blockquote></div>`
      : html`<pre>${p.content}</pre>`}
    ${p.reviewer && html`<p class="muted">reviewed by ${p.reviewer} ${fmt.time(p.reviewedAt)}${p.reviewNote ? `: “${p.reviewNote}”` : ''}</p>`}
    ${p.appliedMemoryId && html`<p>applied as <a href=${href(ns, 'memory', 'mem', p.appliedMemoryId)}>${p.appliedMemoryId}</a> by ${p.appliedBy}</p>`}
    ${reviewer && html`<div class="row">
      ${p.status === 'pending' && html`<input class="note" placeholder="review note" value=${note} onInput=${(e) => setNote(e.target.value)} />
        <button class="accept" disabled=${action.busy} onClick=${review('accepted')}>Accept</button>
        <button class="reject danger" disabled=${action.busy} onClick=${review('rejected')}>Reject</button>`}
      ${p.status === 'accepted' && p.type === 'memory' && html`<button class="apply" disabled=${action.busy}
        onClick=${run(() => post(`${path}/apply`, { appliedBy: me.name }))}>Apply</button>`}
      ${p.status !== 'archived' && html`<button class="archive link" disabled=${action.busy} onClick=${run(() => post(`${path}/archive`))}>Archive</button>`}
    </div>`}
    <${ErrorBox} error=${action.error} />
  </article>`;
}
