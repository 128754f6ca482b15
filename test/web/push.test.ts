// Web Push: the encryption against RFC 8291's own example (Appendix A), a VAPID JWT that
// verifies with the public key the page subscribes with, and the endpoint allow-list.
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPush } from '../../src/web/push/ece.js';
import { readSubscription } from '../../src/web/push/endpoints.js';
import { newVapidJwk, vapidAuthorization, vapidKeys } from '../../src/web/push/vapid.js';

const b = (text: string) => Buffer.from(text, 'base64url');

describe('push message encryption (RFC 8291, aes128gcm)', () => {
  it('reproduces Appendix A of RFC 8291 byte for byte', () => {
    const body = encryptPush(
      b('V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24'),
      b('BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'),
      b('BTBZMqHH6r4Tts7J_aSIgg'),
      { serverPrivate: b('yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw'), salt: b('DGv6ra1nlYgDCS1FRnbzlw'), recordSize: 4096 },
    );
    expect(body.toString('base64url')).toBe(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
  });

  it('uses a fresh key and salt for every message', () => {
    const ua = b('BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4');
    const one = encryptPush(Buffer.from('x'), ua, Buffer.alloc(16, 1));
    const two = encryptPush(Buffer.from('x'), ua, Buffer.alloc(16, 1));
    expect(one.subarray(0, 16).equals(two.subarray(0, 16))).toBe(false);
    expect(one.subarray(21, 86).equals(two.subarray(21, 86))).toBe(false);
  });
});

describe('VAPID', () => {
  it('signs an ES256 JWT for the push service\'s origin that verifies with the page\'s key', () => {
    const keys = vapidKeys(newVapidJwk());
    const header = vapidAuthorization(keys, 'https://fcm.googleapis.com/fcm/send/abc', 'mailto:fleetcom@localhost', 1_700_000_000_000);
    const m = /^vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(\S+)$/.exec(header)!;
    expect(m[4]).toBe(keys.publicKey);
    expect(JSON.parse(b(m[2]!).toString())).toEqual({ aud: 'https://fcm.googleapis.com', exp: 1_700_000_000 + 43_200, sub: 'mailto:fleetcom@localhost' });
    const point = b(keys.publicKey);
    const pub = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${m[1]}.${m[2]}`), { key: pub, dsaEncoding: 'ieee-p1363' }, b(m[3]!))).toBe(true);
  });
});

describe('push endpoints', () => {
  const keys = { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' };
  it.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://web.push.apple.com/QGx',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAA',
    'https://wns2-par02p.notify.windows.com/w/?token=x',
  ])('takes the browsers\' push service %s', (endpoint) => {
    expect(readSubscription({ endpoint, keys })).toMatchObject({ endpoint, keys });
  });

  it.each([
    'http://fcm.googleapis.com/fcm/send/abc', // not https
    'https://fcm.googleapis.com:8443/x', // another port
    'https://127.0.0.1/x', // the server would POST into this machine
    'https://169.254.169.254/latest/meta-data', // a cloud metadata service
    'https://fcm.googleapis.com.evil.example/x',
    'https://evilpush.apple.com.evil.example/x',
    'https://user@fcm.googleapis.com/x',
    'file:///etc/passwd',
  ])('refuses %s', (endpoint) => {
    expect(typeof readSubscription({ endpoint, keys })).toBe('string');
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret', () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    expect(readSubscription({ endpoint, keys: { ...keys, auth: 'AAAA' } })).toMatch(/16-byte/);
    expect(readSubscription({ endpoint, keys: { ...keys, p256dh: 'AAAA' } })).toMatch(/P-256/);
    expect(readSubscription({ endpoint })).toMatch(/keys/);
    expect(readSubscription(null)).toMatch(/expected a push subscription/);
  });
});
