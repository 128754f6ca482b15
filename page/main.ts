// The page: sign in with the fragment's token once, then the fleet list, a task, its history.
// Routes live in the fragment (#/task/3, #/history/3) so Back works and nothing reaches a server.
import { api, ApiError, signIn, type FleetDoc, type StatusDoc, type TaskView } from './api.js';
import { h } from './dom.js';
import { historyView } from './history-view.js';
import { hostTaskView, listView } from './list-view.js';
import { setUpPush } from './push.js';
import { taskPage, type TaskPage } from './task-view.js';

const view = document.getElementById('view')!;
const title = document.getElementById('title')!;
const back = document.getElementById('back') as HTMLButtonElement;
const dot = document.getElementById('link')!;
const badges = document.getElementById('badges')!;

let status: StatusDoc | null = null;
let fleet: FleetDoc | null = null;
let page: TaskPage | null = null;
let pageKey = '';
let refresh: number | null = null;

const link = (up: boolean) => {
  dot.className = `dot ${up ? 'up' : 'down'}`;
};

function findTask(id: number, host: string | null): TaskView | null {
  for (const s of fleet?.sections ?? []) for (const t of s.tasks) if (t.id === id && t.host === host) return t;
  return null;
}

function leavePage(): void {
  page?.dispose();
  page = null;
  pageKey = '';
}

function render(): void {
  const route = location.hash.replace(/^#\/?/, '');
  const m = /^(task|history|host)\/(\d+)(?:\/(.+))?$/.exec(route);
  back.hidden = m === null;
  if (m === null) {
    leavePage();
    title.textContent = 'fleetcom';
    if (fleet !== null) view.replaceChildren(listView(fleet, Date.now(), (t) => {
      location.hash = t.host === null ? `#/task/${t.id}` : `#/host/${t.id}/${encodeURIComponent(t.host)}`;
    }));
    return;
  }
  const id = Number(m[2]);
  if (m[1] === 'host') {
    leavePage();
    const t = findTask(id, decodeURIComponent(m[3] ?? ''));
    title.textContent = t?.label ?? 'host task';
    view.replaceChildren(t === null ? h('p', { class: 'note' }, 'This host task is gone.') : hostTaskView(t));
    return;
  }
  if (m[1] === 'history') {
    leavePage();
    title.textContent = `history · ${findTask(id, null)?.label ?? id}`;
    view.replaceChildren(historyView(id, status?.readOnly ?? true, (task) => {
      location.hash = `#/task/${task}`;
    }));
    return;
  }
  const t = findTask(id, null);
  if (pageKey === route && page !== null) {
    page.update(t);
    return;
  }
  leavePage();
  if (t === null) {
    title.textContent = `task ${id}`;
    view.replaceChildren(h('p', { class: 'note' }, fleet === null ? 'Loading…' : `No task ${id} in the fleet.`));
    return;
  }
  title.textContent = `${t.glyph} ${t.label}`;
  page = taskPage(t, status?.readOnly ?? true, link, () => {
    location.hash = `#/history/${id}`;
  });
  pageKey = route;
  view.replaceChildren(page.el);
}

async function load(): Promise<void> {
  try {
    fleet = await api<FleetDoc>('GET', '/api/fleet');
    if (page === null) link(true);
    render();
  } catch (error) {
    if (page === null) link(false);
    if (error instanceof ApiError && error.status === 403) return signedOut();
  } finally {
    if (document.visibilityState === 'visible') refresh = window.setTimeout(() => void load(), 2_000);
    else refresh = null;
  }
}

function signedOut(): void {
  if (refresh !== null) clearTimeout(refresh);
  leavePage();
  view.replaceChildren(h('p', { class: 'note' }, 'Not signed in. Open the link ', h('code', {}, 'fleetcom web'), ' printed (or scan its QR code): the ', h('code', {}, '#token=…'), ' part signs this browser in once.'));
}

async function start(): Promise<void> {
  back.addEventListener('click', () => history.length > 1 ? history.back() : (location.hash = ''));
  window.addEventListener('hashchange', render);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && refresh === null) void load();
  });
  try {
    await signIn();
    status = await api<StatusDoc>('GET', '/api/status');
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return signedOut();
    view.replaceChildren(h('p', { class: 'note error' }, String(error instanceof Error ? error.message : error)));
    return;
  }
  if (status.readOnly) badges.replaceChildren(h('span', { class: 'badge' }, 'read-only'));
  void setUpPush(status);
  await load();
}

void start();
