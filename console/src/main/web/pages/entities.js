// Entity map: the namespace's most connected entities drawn with Cytoscape.js, relations coloured
// by type; click a node for its documents and relations, expand its neighbourhood on demand so
// graphs of thousands of entities stay responsive (only what is opened is drawn). The first view
// is one call: the entity list with each entity's strongest relations (GET entities?relations=N).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, ns as nsPath, query } from '../api.js';
import { ErrorBox, RELATION_COLOURS, href } from '../ui.js';

const SEEDS = 40;
/** Relations drawn per opened entity (its strongest: the API sorts them by weight). */
const EDGES_PER_ENTITY = 12;
/** Relations listed in the side panel. */
const LISTED = 200;

const entityKey = (ref) => (ref.startsWith('entity:') ? ref.slice(7) : null);

let library;
/** Cytoscape.js, loaded once; main.js starts it early when the map is the page opened. */
export const loadMapLibrary = () => (library ??= import('cytoscape'));

export function Entities({ ns }) {
  const box = useRef(null);
  const cy = useRef(null);
  const [selected, setSelected] = useState(null);
  const [error, setError] = useState(null);
  const [q, setQ] = useState('');
  const [counts, setCounts] = useState({ nodes: 0, edges: 0, total: 0 });
  const expanded = useRef(new Set());

  const nodeOf = (ref, label, kind) => ({
    group: 'nodes',
    data: { id: ref, label: label || ref.replace(/^\w+:/, ''), kind: ref.startsWith('entity:') ? kind || 'entity' : 'document' },
  });
  const loadEntity = async (id, relations = LISTED) =>
    get(nsPath(ns, `/entities/${encodeURIComponent(id)}` + query({ relations })));
  /** Adds entities with their strongest relations and the other ends, in one batch. */
  const expand = (details) => {
    const elements = new Map();
    const absent = (id) => !elements.has(id) && !cy.current.getElementById(id).length;
    for (const detail of details) {
      expanded.current.add(detail.id);
      const self = 'entity:' + detail.id;
      if (absent(self)) elements.set(self, nodeOf(self, detail.name, detail.kind));
      for (const r of detail.relations.slice(0, EDGES_PER_ENTITY)) {
        for (const end of [r.from, r.to]) if (absent(end)) elements.set(end, nodeOf(end));
        const id = `${r.from}|${r.type}|${r.to}`;
        if (absent(id)) {
          elements.set(id, { group: 'edges', data: { id, source: r.from, target: r.to, type: r.type, colour: RELATION_COLOURS[r.type] || '#666' } });
        }
      }
    }
    const all = [...elements.values()];
    cy.current.add([...all.filter((e) => e.group === 'nodes'), ...all.filter((e) => e.group === 'edges')]);
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
  /** The matching entities with their strongest relations, in one call, while the library loads. */
  const fetchSeeds = async (text) => {
    const list = await get(nsPath(ns, '/entities' + query({ q: text, limit: SEEDS, relations: EDGES_PER_ENTITY })));
    performance.mark('entity-map:fetched'); // user timing marks: where the map's time goes
    return { total: list.total, details: list.items };
  };
  const draw = ({ total, details }) => {
    cy.current.elements().remove();
    expanded.current.clear();
    expand(details);
    setCounts({ total, nodes: 0, edges: 0 });
    relayout();
    performance.mark('entity-map:laid-out');
    cy.current.one('render', () => performance.mark('entity-map:painted'));
  };
  const seed = async (text) => draw(await fetchSeeds(text));

  useEffect(() => {
    let live = true;
    const seeds = fetchSeeds('');
    seeds.catch(setError);
    loadMapLibrary().then(async ({ default: cytoscape }) => {
      if (!live) return;
      performance.mark('entity-map:library');
      cy.current = cytoscape({
        container: box.current,
        wheelSensitivity: 0.3,
        pixelRatio: 1,
        hideEdgesOnViewport: true,
        style: [
          { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'background-color': '#4a6fa5', width: 18, height: 18 } },
          // document labels only once zoomed in: text is most of a large map's paint time
          { selector: 'node[kind = "document"]', style: { shape: 'round-rectangle', 'background-color': '#c8b273', 'min-zoomed-font-size': 9 } },
          { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#111' } },
          // straight edges: no control points to compute (two entities rarely share more than one relation)
          { selector: 'edge', style: { 'line-color': 'data(colour)', 'target-arrow-color': 'data(colour)', 'target-arrow-shape': 'triangle', 'curve-style': 'straight', width: 2 } },
        ],
      });
      // The instance on its container lets the browser test find where a node is drawn.
      box.current._cy = cy.current;
      performance.mark('entity-map:ready');
      cy.current.on('tap', 'node', (e) => select(e.target.id()));
      const data = await seeds.catch(() => null);
      if (live && data) draw(data);
    }, setError);
    return () => {
      live = false;
      cy.current?.destroy();
    };
  }, [ns]);

  const expandSelected = async () => {
    try {
      const ids = new Set();
      for (const r of selected.relations.slice(0, EDGES_PER_ENTITY)) {
        for (const ref of [r.from, r.to]) {
          const id = entityKey(ref);
          if (id && !expanded.current.has(id)) ids.add(id);
        }
      }
      expand(await Promise.all([...ids].map((id) => loadEntity(id, EDGES_PER_ENTITY))));
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
          ${selected.relationCount > EDGES_PER_ENTITY && html`<p class="muted">The map draws its ${EDGES_PER_ENTITY} strongest of ${selected.relationCount} relations${selected.relationCount > LISTED ? `; the ${LISTED} strongest are listed` : ''}.</p>`}
          <ul class="relations">${selected.relations.map((r) => html`<li>
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
