// Every call the console makes goes through here: Cairn's public HTTP API, the token from
// session storage in an Authorization header (never in a URL).

const TOKEN_KEY = 'cairn.token';

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** An answer that was not 2xx, with the server's plain-language detail. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

export async function call(method, path, body, token = session.token()) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  if (text && (res.headers.get('content-type') || '').includes('json')) json = JSON.parse(text);
  if (!res.ok) {
    const detail = json?.detail || json?.error?.message || json?.error || text || res.statusText;
    throw new ApiError(res.status, `${res.status}: ${detail}`);
  }
  return json ?? text;
}

export const get = (path) => call('GET', path);
export const post = (path, body = {}) => call('POST', path, body);
export const put = (path, body) => call('PUT', path, body);
export const del = (path) => call('DELETE', path);

/** {@code /v1/namespaces/{ns}/...} with the namespace escaped. */
export const ns = (name, rest = '') => `/v1/namespaces/${encodeURIComponent(name)}${rest}`;

/** A query string from the non-empty entries of {@code params}. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '' && v !== false) q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** What a token's roles allow on a namespace; mirrors the server's Role.satisfies. */
export function allows(token, role, namespace) {
  if (!token) return false;
  const inNs = token.namespaces.includes('*') || token.namespaces.includes(namespace);
  const roles = token.roles;
  const has =
    roles.includes('admin') ||
    roles.includes(role) ||
    (role === 'read' && (roles.includes('write') || roles.includes('review')));
  return inNs && has;
}

/** Whether a token has {@code role} on every namespace (what /v1/tokens asks of an admin). */
export const allowsEverywhere = (token, role) => allows(token, role, '*');
