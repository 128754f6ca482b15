// The two ways a request proves it holds the token: `Authorization: Bearer <token>` (scripts,
// and the page's one exchange), or the cookie that exchange set (`HttpOnly; SameSite=Strict`,
// so page script cannot read it and no other site's request carries it). The cookie holds a
// value derived from the token, never the token: a rotation ends both. Comparisons are of
// SHA-256 digests with timingSafeEqual, so neither length nor content leaks through timing.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The cookie's name: per port, since browsers keep cookies per host, not per port. */
export function cookieName(port: number): string {
  return `fleetcom-web-${port}`;
}

export function cookieValue(token: string): string {
  return createHmac('sha256', token).update('fleetcom web session cookie 1').digest('base64url');
}

/** The Set-Cookie header of the exchange; `secure` when the page came over https. */
export function sessionCookie(port: number, token: string, secure: boolean): string {
  return `${cookieName(port)}=${cookieValue(token)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie header that signs the page out. */
export function clearedCookie(port: number): string {
  return `${cookieName(port)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}

/** One cookie's value out of a Cookie header (the first of that name), or null. */
export function cookieOf(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function bearerOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/** Which credential a request carries and whether it is right. */
export function credentialOf(headers: { authorization?: string; cookie?: string }, port: number, token: string): 'none' | 'bearer' | 'cookie' | 'wrong' {
  const bearer = bearerOf(headers.authorization);
  if (bearer !== null) return sameSecret(bearer, token) ? 'bearer' : 'wrong';
  if (headers.authorization !== undefined) return 'wrong';
  const cookie = cookieOf(headers.cookie, cookieName(port));
  if (cookie !== null && cookie !== '') return sameSecret(cookie, cookieValue(token)) ? 'cookie' : 'wrong';
  return 'none';
}
