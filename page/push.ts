// Alerts on this device: the service worker (which also makes the page installable) and, where
// the server offers Web Push (HTTPS, an installed page on iOS), a bell that subscribes.
import { api, type StatusDoc } from './api.js';
import { h } from './dom.js';

function keyBytes(base64url: string): Uint8Array {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export async function setUpPush(status: StatusDoc): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => null);
  if (registration === null || !status.push.available || !('PushManager' in window)) return;
  const existing = await registration.pushManager.getSubscription();
  const badges = document.getElementById('badges')!;
  // Words, not a bell emoji: a phone has the emoji, a minimal desktop font often does not.
  const bell = h('button', { class: 'alerts', 'aria-label': 'alerts on this device' }, existing ? 'alerts on' : 'alerts off');
  badges.append(bell);
  bell.addEventListener('click', () => void (async () => {
    const now = await registration.pushManager.getSubscription();
    if (now !== null) {
      await api('DELETE', '/api/push/subscription', now.toJSON()).catch(() => {});
      await now.unsubscribe();
      bell.textContent = 'alerts off';
      return;
    }
    if ((await Notification.requestPermission()) !== 'granted') return;
    const { key } = await api<{ key: string }>('GET', '/api/push/key');
    const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) as BufferSource });
    await api('POST', '/api/push/subscription', sub.toJSON());
    bell.textContent = 'alerts on';
  })());
}
