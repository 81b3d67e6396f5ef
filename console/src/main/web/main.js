// The console's shell: sign-in, the namespaces the token can see, navigation by the URL's hash.
import { html } from 'htm/preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, allows, allowsEverywhere, call, get, session } from './api.js';
import { ErrorBox, go } from './ui.js';
import { Knowledge } from './pages/knowledge.js';
import { Retrieve } from './pages/retrieve.js';
import { Memory } from './pages/memory.js';
import { Proposals } from './pages/proposals.js';
import { Entities, loadMapLibrary } from './pages/entities.js';
import { Conversations } from './pages/conversations.js';
import { Health } from './pages/health.js';
import { Tokens } from './pages/tokens.js';
import './style.css';

/** id, label, component, and who is offered the page (everyone unless said). */
const PAGES = [
  ['knowledge', 'Knowledge', Knowledge],
  ['retrieve', 'Retrieve', Retrieve],
  ['memory', 'Memory', Memory],
  ['proposals', 'Proposals', Proposals],
  ['entities', 'Entity map', Entities],
  ['conversations', 'Conversations & KV', Conversations],
  ['health', 'Health', Health],
  ['tokens', 'Tokens', Tokens, (me) => allowsEverywhere(me, 'admin')],
];

/** #/{ns}/{page}/{rest...} */
function parseHash() {
  const [nsName, page, ...rest] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return { ns: nsName || '', page: page || 'knowledge', rest };
}

function SignIn({ onSignedIn, error: initial }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(initial);
  const submit = async (e) => {
    e.preventDefault();
    try {
      const me = await call('GET', '/v1/token', undefined, token.trim());
      session.signIn(token.trim());
      onSignedIn(me);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? new Error('Cairn refused this token (401): unknown or revoked.') : err);
    }
  };
  return html`<main class="signin">
    <h1>Cairn console</h1>
    <p class="muted">Sign in with a Cairn API token. It stays in this tab's session storage.</p>
    <form onSubmit=${submit}>
      <input id="token" type="password" autocomplete="off" placeholder="token" value=${token}
        onInput=${(e) => setToken(e.target.value)} />
      <button type="submit" disabled=${!token.trim()}>Sign in</button>
    </form>
    <${ErrorBox} error=${error} />
  </main>`;
}

function App() {
  const [me, setMe] = useState(null);
  const [checking, setChecking] = useState(!!session.token());
  const [namespaces, setNamespaces] = useState(null);
  const [route, setRoute] = useState(parseHash());
  const [error, setError] = useState(null);

  useEffect(() => {
    const onHash = () => setRoute(parseHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (!session.token()) return;
    get('/v1/token').then(setMe, (e) => {
      session.signOut();
      setError(e);
    }).finally(() => setChecking(false));
  }, []);
  useEffect(() => {
    if (!me) return;
    get('/v1/namespaces?limit=1000').then((a) => {
      setNamespaces(a.items);
      if (!route.ns && a.items.length) go(a.items[0].name, 'knowledge');
    }, setError);
  }, [me]);

  if (checking) return html`<div class="muted">Checking token…</div>`;
  if (!me) return html`<${SignIn} onSignedIn=${setMe} error=${error} />`;

  const signOut = () => {
    session.signOut();
    setMe(null);
    location.hash = '';
  };
  const offered = PAGES.filter(([, , , offers]) => !offers || offers(me));
  const current = offered.find(([id]) => id === route.page) || offered[0];
  const Page = current[2];
  const can = (role) => allows(me, role, route.ns);
  return html`<div class="shell">
    <header>
      <strong>Cairn</strong>
      <label>namespace
        <select id="namespace" value=${route.ns} onChange=${(e) => go(e.target.value, route.page)}>
          ${(namespaces || []).map((n) => html`<option value=${n.name}>${n.name}</option>`)}
        </select>
      </label>
      <nav>${offered.map(([id, label]) => html`<a href=${`#/${encodeURIComponent(route.ns)}/${id}`}
        class=${id === current[0] ? 'active' : ''} data-page=${id}>${label}</a>`)}</nav>
      <span class="who" title=${`namespaces: ${me.namespaces.join(', ')}`}>
        ${me.name} · ${me.roles.join(', ')}
      </span>
      <button class="link" onClick=${signOut}>Sign out</button>
    </header>
    <${ErrorBox} error=${error} />
    ${namespaces && namespaces.length === 0 && html`<p class="muted">This token sees no namespace.</p>`}
    ${route.ns && html`<main key=${route.ns + '/' + current[0]}>
      <${Page} ns=${route.ns} rest=${route.rest} can=${can} me=${me} />
    </main>`}
  </div>`;
}

// The map's drawing library is the largest download: when the map is the page opened, fetch and
// compile it while the token is checked instead of after.
if (parseHash().page === 'entities') loadMapLibrary();
render(html`<${App} />`, document.getElementById('app'));
