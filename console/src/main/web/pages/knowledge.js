// Knowledge: documents (search, paging), one document (front matter, chunks), ingest.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { del, get, ns as nsPath, post, query } from '../api.js';
import { Badge, RELATION_COLOURS, ErrorBox, Loading, Pager, fmt, frontMatter, go, href, useAction, useLoad } from '../ui.js';

export function Knowledge({ ns, rest, can }) {
  if (rest[0] === 'doc' && rest[1]) return html`<${DocumentPage} ns=${ns} id=${rest[1]} can=${can} />`;
  return html`<${DocumentList} ns=${ns} can=${can} />`;
}

function DocumentList({ ns, can }) {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState(['']);
  const cursor = cursors[cursors.length - 1];
  const list = useLoad(
    () => get(nsPath(ns, '/documents' + query({ q: search, limit: 25, cursor }))),
    [ns, search, cursor],
  );
  return html`<section>
    <h2>Documents</h2>
    ${can('write') && html`<${Ingest} ns=${ns} onDone=${list.reload} />`}
    <form class="row" onSubmit=${(e) => { e.preventDefault(); setCursors(['']); setSearch(q); }}>
      <input id="doc-search" placeholder="search titles and text" value=${q} onInput=${(e) => setQ(e.target.value)} />
      <button type="submit">Search</button>
    </form>
    <${Loading} state=${list} />
    ${list.data && html`<table class="list" id="documents">
      <thead><tr><th>title</th><th>id</th><th>version</th><th>authority</th><th>tags</th><th>updated</th></tr></thead>
      <tbody>${list.data.items.map((d) => html`<tr>
        <td><a href=${href(ns, 'knowledge', 'doc', d.id)}>${d.title}</a></td>
        <td><code>${d.id}</code></td><td>${d.version}</td>
        <td><${Badge} kind=${d.authority}>${d.authority}</${Badge}></td>
        <td>${d.tags.join(', ')}</td><td>${fmt.time(d.updatedAt)}</td></tr>`)}
      </tbody></table>
      <${Pager} answer=${list.data} cursors=${cursors} setCursors=${setCursors} />`}
  </section>`;
}

/** Paste Markdown or drop a .md file; the title defaults to the first heading. */
function Ingest({ ns, onDone }) {
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [result, setResult] = useState(null);
  const action = useAction();
  const onDrop = async (e) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) {
      setContent(await file.text());
      if (!title) setTitle(file.name.replace(/\.(md|markdown|txt)$/, ''));
    }
  };
  const submit = (e) => {
    e.preventDefault();
    const heading = /^#\s+(.+)$/m.exec(frontMatter(content).body);
    action.run(async () => {
      const answer = await post(nsPath(ns, '/documents'), {
        title: title.trim() || heading?.[1] || 'Untitled',
        content,
        format: 'markdown',
      });
      setResult(answer);
      setContent('');
      setTitle('');
      onDone();
    });
  };
  if (!open) return html`<button id="open-ingest" onClick=${() => setOpen(true)}>Ingest a document…</button>`;
  return html`<form class="card" id="ingest" onSubmit=${submit}>
    <h3>Ingest Markdown</h3>
    <input id="ingest-title" placeholder="title (default: first heading)" value=${title} onInput=${(e) => setTitle(e.target.value)} />
    <textarea id="ingest-content" class="drop" rows="10" placeholder="Paste Markdown here, or drop a .md file"
      value=${content} onInput=${(e) => setContent(e.target.value)}
      onDragOver=${(e) => e.preventDefault()} onDrop=${onDrop}></textarea>
    <div class="row">
      <button type="submit" disabled=${action.busy || !content.trim()}>Ingest</button>
      <button type="button" class="link" onClick=${() => setOpen(false)}>Close</button>
      ${result && html`<span class="ok" id="ingest-result">Stored <a href=${href(ns, 'knowledge', 'doc', result.id)}>${result.id}</a>
        v${result.version}, ${result.chunks} chunks</span>`}
    </div>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

function DocumentPage({ ns, id, can }) {
  const doc = useLoad(() => get(nsPath(ns, `/documents/${encodeURIComponent(id)}`)), [ns, id]);
  const action = useAction();
  const d = doc.data;
  if (!d) return html`<${Loading} state=${doc} />`;
  const { yaml } = frontMatter(d.content);
  const remove = () =>
    confirm(`Delete document ${d.id}?`) &&
    action.run(async () => {
      await del(nsPath(ns, `/documents/${encodeURIComponent(d.id)}`));
      go(ns, 'knowledge');
    });
  return html`<section id="document">
    <p><a href=${href(ns, 'knowledge')}>← Documents</a></p>
    <h2>${d.title}</h2>
    <dl class="facts">
      <dt>id</dt><dd><code>${d.id}</code> v${d.version}</dd>
      <dt>authority</dt><dd><${Badge} kind=${d.authority}>${d.authority}</${Badge}></dd>
      <dt>format</dt><dd>${d.format}</dd>
      <dt>source</dt><dd>${d.source || '–'}</dd>
      <dt>tags</dt><dd>${d.tags.join(', ') || '–'}</dd>
      <dt>metadata</dt><dd>${Object.entries(d.metadata || {}).map(([k, v]) => `${k}=${v}`).join(', ') || '–'}</dd>
      <dt>updated</dt><dd>${fmt.time(d.updatedAt)}</dd>
    </dl>
    ${can('write') && html`<button class="danger" onClick=${remove}>Delete document</button>`}
    <${ErrorBox} error=${action.error} />
    ${yaml && html`<h3>Front matter</h3><pre class="frontmatter">${yaml}</pre>`}
    <${DocumentGraph} ns=${ns} id=${d.id} />
    <h3>Chunks (${d.chunks.length})</h3>
    ${d.chunks.map((c) => html`<article class="chunk" id=${'chunk-' + c.ordinal}>
      <header><code>${c.chunkId}</code> · ${c.headingPath.join(' › ') || c.heading || '(no heading)'} · ${c.tokens} tokens</header>
      <pre>${c.text}</pre></article>`)}
  </section>`;
}

/** The entities the document's chunks mention and the relations it declared or stated. */
function DocumentGraph({ ns, id }) {
  const g = useLoad(() => get(nsPath(ns, `/documents/${encodeURIComponent(id)}/graph`)), [ns, id]);
  if (!g.data) return html`<${Loading} state=${g} />`;
  const name = (ref) => ref.replace(/^entity:/, '').replace(/^document:/, 'document ');
  return html`<div id="document-graph">
    <h3>Entities (${g.data.entities.length})</h3>
    <p>${g.data.entities.map((e) => html`<span class="badge">${e.name} · ${e.kind}</span> `)}</p>
    <h3>Relations (${g.data.relations.length})</h3>
    <ul class="relations">${g.data.relations.map((r) => html`<li>${name(r.from)}
      <span style=${`color:${RELATION_COLOURS[r.type] || '#666'}`}>${r.type}</span> ${name(r.to)}
      <span class="muted">(weight ${fmt.num(r.weight, 2)})</span></li>`)}</ul>
    <p class="muted">Drawn with their neighbours in the <a href=${href(ns, 'entities')}>entity map</a>.</p>
  </div>`;
}
