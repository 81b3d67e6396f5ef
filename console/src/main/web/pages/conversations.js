// Conversations (ARK) and key/value (Orloj): browse, search transcripts, see flagged entries.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { get, ns as nsPath, post, query } from '../api.js';
import { Badge, ErrorBox, Loading, fmt, useAction, useLoad } from '../ui.js';

export function Conversations({ ns }) {
  return html`<section>
    <h2>Conversations</h2>
    <${TranscriptSearch} ns=${ns} />
    <${ConversationList} ns=${ns} />
    <h2>Key/value</h2>
    <${KeyValues} ns=${ns} />
  </section>`;
}

const ark = (ns, rest) => `/ark/${encodeURIComponent(ns)}${rest}`;
const orloj = (ns, rest) => `/orloj/${encodeURIComponent(ns)}${rest}`;

function ConversationList({ ns }) {
  const status = useLoad(() => get(ark(ns, '/memory-status')), [ns]);
  const [open, setOpen] = useState(null);
  if (!status.data) return html`<${Loading} state=${status} />`;
  const conversations = Object.entries(status.data.conversations || {});
  return html`<div class="card">
    <p>${status.data.total_conversations} conversations, ${status.data.total_messages} messages</p>
    <table class="list" id="conversations"><thead><tr><th>conversation</th><th>messages</th><th>queries</th></tr></thead>
      <tbody>${conversations.map(([id, c]) => html`<tr>
        <td><button class="link" onClick=${() => setOpen(id)}>${id}</button></td><td>${c.message_count}</td><td>${c.query_count}</td></tr>`)}</tbody></table>
    ${open && html`<${Messages} ns=${ns} id=${open} />`}
  </div>`;
}

function Messages({ ns, id }) {
  const msgs = useLoad(() => get(ark(ns, '/messages' + query({ conversation_id: id, limit: 200 }))), [ns, id]);
  if (!msgs.data) return html`<${Loading} state=${msgs} />`;
  return html`<div id="messages"><h3>${id}</h3>
    ${msgs.data.items.map((m) => html`<div class=${'message' + (m.flags ? ' flagged' : '')}>
      <span class="muted">#${m.sequence} · ${fmt.time(m.timestamp)} · query ${m.query_id}</span>
      ${m.flags && html` <${Badge} kind="bad">flagged: ${m.flags.join(', ')}</${Badge}>`}
      <pre>${m.message?.role ? `${m.message.role}: ` : ''}${typeof m.message?.content === 'string' ? m.message.content : JSON.stringify(m.message)}</pre>
    </div>`)}
    ${msgs.data.hasMore && html`<p class="muted">First 200 shown.</p>`}
  </div>`;
}

function TranscriptSearch({ ns }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState(null);
  const action = useAction();
  const submit = (e) => {
    e.preventDefault();
    action.run(async () => setHits(await post(nsPath(ns, '/transcripts/search'), { query: q, limit: 20 })));
  };
  return html`<form class="row card" onSubmit=${submit}>
    <input id="transcript-q" class="wide" placeholder="search transcripts" value=${q} onInput=${(e) => setQ(e.target.value)} />
    <button type="submit" disabled=${!q.trim()}>Search</button>
    <${ErrorBox} error=${action.error} />
    ${hits && html`<ul class="hits">${hits.items.map((h) => html`<li><code>${h.conversationId}</code> ${h.role} · ${fmt.num(h.score)}<br/>${h.snippet}</li>`)}</ul>`}
  </form>`;
}

function KeyValues({ ns }) {
  const [prefix, setPrefix] = useState('');
  const [q, setQ] = useState('');
  const [found, setFound] = useState(null);
  const list = useLoad(() => post(orloj(ns, '/list'), { prefix }), [ns, prefix]);
  const action = useAction();
  const search = (e) => {
    e.preventDefault();
    action.run(async () => setFound(q.trim() ? await post(orloj(ns, '/search'), { query: q, top_k: 20 }) : null));
  };
  const entries = list.data?.entries || [];
  return html`<div class="card">
    <form class="row" onSubmit=${search}>
      <input placeholder="key prefix" value=${prefix} onInput=${(e) => setPrefix(e.target.value)} />
      <input placeholder="search values" value=${q} onInput=${(e) => setQ(e.target.value)} />
      <button type="submit">Search</button>
    </form>
    <${ErrorBox} error=${action.error || list.error} />
    ${found && html`<h3>Search results</h3><table class="list"><tbody>${found.results.map((r) => html`<tr><td><code>${r.key}</code></td><td>${r.value}</td><td>${fmt.num(r.score)}</td></tr>`)}</tbody></table>`}
    <h3>${entries.length} entries${entries.length > 500 ? ' (first 500 shown)' : ''}</h3>
    <table class="list" id="kv"><tbody>${entries.slice(0, 500).map((e) => html`<tr class=${e.flagged ? 'flagged' : ''}>
      <td><code>${e.key}</code></td><td>${String(e.value).slice(0, 300)}</td></tr>`)}</tbody></table>
  </div>`;
}
