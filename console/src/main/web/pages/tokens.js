// Tokens (admin on every namespace): the tokens Cairn knows, making one with roles and
// namespaces (its secret is shown once, in the creation answer), revoking one.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { del, get, post } from '../api.js';
import { ErrorBox, Loading, fmt, useAction, useLoad } from '../ui.js';

const ROLES = ['read', 'write', 'review', 'admin'];

export function Tokens({ ns, me }) {
  const list = useLoad(() => get('/v1/tokens'), []);
  const [created, setCreated] = useState(null);
  return html`<section>
    <h2>Tokens</h2>
    <${CreateToken} ns=${ns} onCreated=${(t) => { setCreated(t); list.reload(); }} />
    ${created && html`<div class="card" id="created-token">
      <p>Token <strong>${created.name}</strong> made. Copy its secret now: Cairn keeps only its hash and shows it nowhere else.</p>
      <pre id="new-secret">${created.token}</pre>
      <button class="link" onClick=${() => setCreated(null)}>Done, hide it</button>
    </div>`}
    <${Loading} state=${list} />
    ${list.data && html`<table class="list" id="tokens">
      <thead><tr><th>name</th><th>roles</th><th>namespaces</th><th>created</th><th></th></tr></thead>
      <tbody>${list.data.items.map((t) => html`<${TokenRow} key=${t.name} t=${t} self=${t.name === me.name} onRevoked=${list.reload} />`)}</tbody>
    </table>`}
  </section>`;
}

function CreateToken({ ns, onCreated }) {
  const [form, setForm] = useState({ name: '', roles: ['read'], namespaces: ns });
  const action = useAction();
  const toggle = (role) => (e) =>
    setForm({ ...form, roles: e.target.checked ? [...form.roles, role] : form.roles.filter((r) => r !== role) });
  const submit = (e) => {
    e.preventDefault();
    action.run(async () => {
      const namespaces = form.namespaces.split(',').map((n) => n.trim()).filter(Boolean);
      onCreated(await post('/v1/tokens', { name: form.name.trim(), roles: form.roles, namespaces }));
      setForm({ ...form, name: '' });
    });
  };
  return html`<form class="card" id="create-token" onSubmit=${submit}>
    <h3>Make a token</h3>
    <div class="row">
      <input id="token-name" placeholder="name (who or what uses it)" value=${form.name} onInput=${(e) => setForm({ ...form, name: e.target.value })} />
      ${ROLES.map((r) => html`<label><input type="checkbox" name="role" value=${r} checked=${form.roles.includes(r)} onChange=${toggle(r)} /> ${r}</label>`)}
      <input id="token-namespaces" placeholder="namespaces (a,b or *)" value=${form.namespaces} onInput=${(e) => setForm({ ...form, namespaces: e.target.value })} />
      <button type="submit" disabled=${action.busy || !form.name.trim() || form.roles.length === 0 || !form.namespaces.trim()}>Make token</button>
    </div>
    <p class="muted">write and review include read; admin on * manages tokens.</p>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

function TokenRow({ t, self, onRevoked }) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const revoke = () => action.run(async () => { await del(`/v1/tokens/${encodeURIComponent(t.name)}`); onRevoked(); });
  return html`<tr data-token=${t.name}>
    <td>${t.name}${self ? html` <span class="muted">(you)</span>` : ''}</td><td>${t.roles.join(', ')}</td>
    <td>${t.namespaces.join(', ')}</td><td>${fmt.time(t.createdAt)}</td>
    <td>${!self && (confirming
      ? html`<button class="danger confirm-revoke" disabled=${action.busy} onClick=${revoke}>Revoke ${t.name} for good</button>
          <button class="link" onClick=${() => setConfirming(false)}>cancel</button>`
      : html`<button class="revoke" onClick=${() => setConfirming(true)}>Revoke…</button>`)}
      <${ErrorBox} error=${action.error} /></td>
  </tr>`;
}
