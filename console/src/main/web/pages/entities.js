// Entity map: the namespace's most connected entities drawn with Cytoscape.js, relations coloured
// by type; click a node for its documents and relations, expand its neighbourhood on demand so
// graphs of thousands of entities stay responsive (only what is opened is drawn).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, ns as nsPath, query } from '../api.js';
import { ErrorBox, RELATION_COLOURS, href } from '../ui.js';

const SEEDS = 40;
/** Relations drawn per opened entity (its strongest: the API sorts them by weight). */
const EDGES_PER_ENTITY = 25;
/** Relations listed in the side panel. */
const LISTED = 200;

const entityKey = (ref) => (ref.startsWith('entity:') ? ref.slice(7) : null);

export function Entities({ ns }) {
  const box = useRef(null);
  const cy = useRef(null);
  const [selected, setSelected] = useState(null);
  const [error, setError] = useState(null);
  const [q, setQ] = useState('');
  const [counts, setCounts] = useState({ nodes: 0, edges: 0, total: 0 });
  const expanded = useRef(new Set());

  const addNode = (ref, label, kind) => {
    if (cy.current.getElementById(ref).length) return;
    const isEntity = ref.startsWith('entity:');
    cy.current.add({ group: 'nodes', data: { id: ref, label: label || ref.replace(/^\w+:/, ''), kind: isEntity ? kind || 'entity' : 'document' } });
  };
  const loadEntity = async (id) => get(nsPath(ns, `/entities/${encodeURIComponent(id)}`));
  /** Adds an entity's relations and their other ends to the drawing. */
  const expand = async (detail) => {
    expanded.current.add(detail.id);
    addNode('entity:' + detail.id, detail.name, detail.kind);
    for (const r of detail.relations.slice(0, EDGES_PER_ENTITY)) {
      addNode(r.from);
      addNode(r.to);
      const id = `${r.from}|${r.type}|${r.to}`;
      if (!cy.current.getElementById(id).length) {
        cy.current.add({ group: 'edges', data: { id, source: r.from, target: r.to, type: r.type, colour: RELATION_COLOURS[r.type] || '#666' } });
      }
    }
  };
  const relayout = () => {
    // concentric by degree: linear time, hubs in the middle (a force layout took seconds at a
    // few hundred nodes on a loaded machine)
    cy.current.layout({ name: 'concentric', animate: false, concentric: (n) => n.degree(), levelWidth: () => 2, minNodeSpacing: 18 }).run();
    setCounts((c) => ({ ...c, nodes: cy.current.nodes().length, edges: cy.current.edges().length }));
  };
  const select = async (ref) => {
    const id = entityKey(ref);
    if (!id) {
      setSelected({ document: ref.replace(/^document:/, '') });
      return;
    }
    try {
      setSelected(await loadEntity(id));
    } catch (e) {
      setError(e);
    }
  };
  const seed = async (text) => {
    const list = await get(nsPath(ns, '/entities' + query({ q: text, limit: SEEDS })));
    cy.current.elements().remove();
    expanded.current.clear();
    const details = await Promise.all(list.items.map((e) => loadEntity(e.id)));
    for (const d of details) await expand(d);
    setCounts({ total: list.total, nodes: 0, edges: 0 });
    relayout();
  };

  useEffect(() => {
    let live = true;
    import('cytoscape').then(({ default: cytoscape }) => {
      if (!live) return;
      cy.current = cytoscape({
        container: box.current,
        wheelSensitivity: 0.3,
        style: [
          { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'background-color': '#4a6fa5', width: 18, height: 18 } },
          { selector: 'node[kind = "document"]', style: { shape: 'round-rectangle', 'background-color': '#c8b273' } },
          { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#111' } },
          { selector: 'edge', style: { 'line-color': 'data(colour)', 'target-arrow-color': 'data(colour)', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', width: 2 } },
        ],
      });
      // The instance on its container lets the browser test find where a node is drawn.
      box.current._cy = cy.current;
      cy.current.on('tap', 'node', (e) => select(e.target.id()));
      seed('').catch(setError);
    }, setError);
    return () => {
      live = false;
      cy.current?.destroy();
    };
  }, [ns]);

  const expandSelected = async () => {
    try {
      for (const r of selected.relations.slice(0, EDGES_PER_ENTITY)) {
        for (const ref of [r.from, r.to]) {
          const id = entityKey(ref);
          if (id && !expanded.current.has(id)) await expand(await loadEntity(id));
        }
      }
      relayout();
    } catch (e) {
      setError(e);
    }
  };

  return html`<section>
    <h2>Entity map</h2>
    <form class="row" onSubmit=${(e) => { e.preventDefault(); seed(q).catch(setError); }}>
      <input id="entity-search" placeholder="find entities by name" value=${q} onInput=${(e) => setQ(e.target.value)} />
      <button type="submit">Draw</button>
      <span class="muted" id="entity-counts">${counts.nodes} nodes, ${counts.edges} relations drawn · ${counts.total} matching entities</span>
    </form>
    <div class="legend">${Object.entries(RELATION_COLOURS).map(([t, c]) => html`<span><i style=${`background:${c}`}></i>${t}</span>`)}</div>
    <${ErrorBox} error=${error} />
    <div class="map-layout">
      <div id="entity-map" ref=${box}></div>
      <aside id="entity-panel">
        ${!selected && html`<p class="muted">Click a node.</p>`}
        ${selected?.document && html`<p>Document <a href=${href(ns, 'knowledge', 'doc', selected.document)}>${selected.document}</a></p>`}
        ${selected?.name && html`<div>
          <h3 id="entity-name">${selected.name}</h3>
          <p>${selected.kind}${selected.aliases.length ? ` · also ${selected.aliases.join(', ')}` : ''} · degree ${selected.degree} · mentioned by ${selected.mentionedBy} chunks</p>
          <button id="expand" onClick=${expandSelected}>Expand neighbourhood</button>
          ${selected.relations.length > EDGES_PER_ENTITY && html`<p class="muted">The map draws its ${EDGES_PER_ENTITY} strongest of ${selected.relations.length} relations${selected.relations.length > LISTED ? `; the first ${LISTED} are listed` : ''}.</p>`}
          <ul class="relations">${selected.relations.slice(0, LISTED).map((r) => html`<li>
            <${Ref} ns=${ns} value=${r.from} /> <span style=${`color:${RELATION_COLOURS[r.type] || '#666'}`}>${r.type}</span> <${Ref} ns=${ns} value=${r.to} /></li>`)}</ul>
        </div>`}
      </aside>
    </div>
  </section>`;
}

function Ref({ ns, value }) {
  if (value.startsWith('document:')) {
    const id = value.slice(9);
    return html`<a href=${href(ns, 'knowledge', 'doc', id)}>document ${id}</a>`;
  }
  return html`<code>${value.replace(/^entity:/, '')}</code>`;
}
