// Where the server may POST a push: only the browsers' own push services. A subscription is
// what a client says, and the server would send to whatever address it named (a request from
// inside the machine or the tailnet: SSRF); so the endpoint must be https on port 443 of one
// of these hosts, and carry proper keys.

/** Chrome/Edge on Android and desktop (FCM), Safari (Apple), Firefox (Mozilla), Edge on Windows (WNS). */
const PUSH_HOSTS: Array<string | RegExp> = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  /^[a-z0-9-]+\.push\.apple\.com$/,
  /^[a-z0-9-]+\.notify\.windows\.com$/,
];

export interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The subscription as the page sent it (PushSubscription.toJSON()), or why it is refused. */
export function readSubscription(body: unknown, hosts: ReadonlyArray<string | RegExp> = PUSH_HOSTS): Subscription | string {
  const s = body as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  if (typeof s?.endpoint !== 'string' || s.endpoint.length > 2048) return 'expected a push subscription {endpoint, keys: {p256dh, auth}}';
  let url: URL;
  try {
    url = new URL(s.endpoint);
  } catch {
    return 'the endpoint is not a URL';
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '' || !hosts.some((h) => (typeof h === 'string' ? h === host : h.test(host)))) {
    return `the endpoint ${url.protocol}//${host} is not a browser's push service (FCM, Apple, Mozilla or Windows push, over https)`;
  }
  const { p256dh, auth } = s.keys ?? {};
  if (typeof p256dh !== 'string' || !B64URL.test(p256dh) || typeof auth !== 'string' || !B64URL.test(auth)) return 'expected keys {p256dh, auth} in base64url';
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || Buffer.from(auth, 'base64url').length !== 16) return 'the keys are not a P-256 point and a 16-byte auth secret';
  return { endpoint: url.href, keys: { p256dh, auth } };
}
