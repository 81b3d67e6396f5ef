// Small shared pieces: loading with errors, cursor paging, buttons that only show when allowed.
import { html } from 'htm/preact';
import { useCallback, useEffect, useState } from 'preact/hooks';

/** Runs {@code load} when {@code deps} change; {@code reload} runs it again. */
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const run = useCallback(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: null, error, loading: false }),
    );
    return () => (live = false);
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

export function ErrorBox({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">${error.message || String(error)}</div>`;
}

export function Loading({ state }) {
  if (state.error) return html`<${ErrorBox} error=${state.error} />`;
  if (state.loading && !state.data) return html`<div class="muted">Loading…</div>`;
  return null;
}

/** Cursor paging over a list answer ({@code items, total, nextCursor}). */
export function Pager({ answer, cursors, setCursors }) {
  if (!answer) return null;
  const page = cursors.length;
  return html`<div class="pager">
    <button disabled=${page === 1} onClick=${() => setCursors(cursors.slice(0, -1))}>◀ Previous</button>
    <span>page ${page} · ${answer.total} in all</span>
    <button
      disabled=${!answer.nextCursor}
      onClick=${() => setCursors([...cursors, answer.nextCursor])}
    >Next ▶</button>
  </div>`;
}

/** Runs an action, showing its error; {@code busy} while it runs. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export const fmt = {
  num: (x, digits = 3) => (x === null || x === undefined ? '–' : Number(x).toFixed(digits)),
  time: (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '–'),
  ranks: (ranks) =>
    ['lexical', 'dense', 'graph']
      .map((s) => `${s[0].toUpperCase()}${ranks?.[s] ?? '–'}`)
      .join(' '),
};

export function Badge({ kind, children }) {
  return html`<span class=${`badge badge-${String(kind).toLowerCase()}`}>${children}</span>`;
}

/** Splits Markdown front matter from the body (display only; the server parses it for real). */
export function frontMatter(content) {
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(content || '');
  return m ? { yaml: m[1], body: content.slice(m[0].length) } : { yaml: '', body: content || '' };
}

/** Navigates to #/{ns}/{page}/{rest...}. */
export function go(nsName, page, ...rest) {
  location.hash = '#/' + [nsName, page, ...rest].map(encodeURIComponent).join('/');
}

export const href = (nsName, page, ...rest) =>
  '#/' + [nsName, page, ...rest].map(encodeURIComponent).join('/');

/** Relation types and their colours, in the entity map and on document pages. */
export const RELATION_COLOURS = {
  governs: '#1f77b4',
  supersedes: '#9467bd',
  depends_on: '#ff7f0e',
  part_of: '#2ca02c',
  related_to: '#8c564b',
  mentions: '#aaaaaa',
  contradicts: '#d62728',
};
