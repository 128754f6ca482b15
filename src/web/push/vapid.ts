// VAPID (RFC 8292): the server's P-256 key, made once and kept 0600 beside the token, and the
// short-lived ES256 JWT a push service wants with each message, signed with node:crypto.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';

export interface VapidKeys {
  privateKey: KeyObject;
  /** The uncompressed point, base64url: what the page subscribes with. */
  publicKey: string;
}

/** The JWK to keep (its `d` is the secret). */
export function newVapidJwk(): JsonWebKey {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
}

/** Keys from a kept JWK; throws when it is not a P-256 private key. */
export function vapidKeys(jwk: JsonWebKey): VapidKeys {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') throw new Error('not a P-256 private key');
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
  const pub = createPublicKey(privateKey).export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(pub.x!, 'base64url'), Buffer.from(pub.y!, 'base64url')]);
  return { privateKey, publicKey: point.toString('base64url') };
}

/** `Authorization: vapid t=…, k=…` for a push service's origin, valid 12 hours. */
export function vapidAuthorization(keys: VapidKeys, endpoint: string, subject: string, nowMs: number): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const claims = { aud: new URL(endpoint).origin, exp: Math.floor(nowMs / 1000) + 12 * 3600, sub: subject };
  const unsigned = `${enc({ typ: 'JWT', alg: 'ES256' })}.${enc(claims)}`;
  const signature = sign('sha256', Buffer.from(unsigned), { key: keys.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `vapid t=${unsigned}.${signature}, k=${keys.publicKey}`;
}
