// The page's calls to its server: same origin, the cookie the sign-in set (HttpOnly: this
// script never sees it), JSON both ways.

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let doc: unknown = null;
  try {
    doc = text === '' ? null : JSON.parse(text);
  } catch {
    doc = { error: text.trim() };
  }
  if (!res.ok) throw new ApiError(res.status, (doc as { error?: string } | null)?.error ?? `${res.status}`);
  return doc as T;
}

/** The fragment's token, traded once for the cookie; then the address bar forgets it. */
export async function signIn(): Promise<void> {
  const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname);
  const res = await fetch('/api/session', { method: 'POST', credentials: 'same-origin', headers: { Authorization: `Bearer ${m[1]}` } });
  if (!res.ok) throw new ApiError(res.status, 'the link\'s token was refused (rotated? run fleetcom web again and use the new link)');
}

export interface TaskView {
  id: number;
  host: string | null;
  label: string;
  glyph: string;
  state: 'running' | 'idle' | 'exited';
  exitStatus: number | null;
  attention: 'working' | 'waiting' | 'permission' | null;
  text: string;
  since: number | null;
  cwd: string;
  command: string | null;
  harness: string | null;
  conversationId: string | null;
  turn: number | null;
  terminal: boolean;
  reach: string | null;
  keys: { approve: string; deny: string } | null;
}

export interface FleetDoc {
  readOnly: boolean;
  fleet: boolean;
  sections: Array<{ title: string; host: string | null; note: string | null; tasks: TaskView[] }>;
}

export interface StatusDoc {
  readOnly: boolean;
  transport: string;
  push: { available: boolean; why: string };
  version: string;
}
