// The service worker: shows a pushed alert and opens the task it names when tapped. It caches
// nothing (the page is live data; offline it says it cannot reach the server).
const sw = self as unknown as ServiceWorkerGlobalScope;
export {};

interface Alert {
  title?: string;
  body?: string;
  task?: number | null;
  tag?: string;
}

sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('push', (event) => {
  let alert: Alert = {};
  try {
    alert = (event.data?.json() ?? {}) as Alert;
  } catch {
    alert = { body: event.data?.text() ?? '' };
  }
  event.waitUntil(sw.registration.showNotification(alert.title ?? 'fleetcom', {
    body: alert.body ?? '',
    tag: alert.tag ?? 'fleetcom',
    data: { task: alert.task ?? null },
    icon: '/icon-192.png',
  }));
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const task = (event.notification.data as { task?: number | null } | null)?.task;
  const url = typeof task === 'number' ? `/#/task/${task}` : '/';
  event.waitUntil((async () => {
    const windows = await sw.clients.matchAll({ type: 'window' });
    for (const w of windows) {
      if ('focus' in w) {
        await (w as WindowClient).navigate(url).catch(() => null);
        return void (await (w as WindowClient).focus());
      }
    }
    await sw.clients.openWindow(url);
  })());
});
