// The headers of every answer. The page runs only its own script (no inline script, nothing
// from elsewhere), is never framed and never tells another site where it came from. Styles
// may be inline: xterm.js's DOM renderer writes the terminal's cell size and colours into
// <style> elements it makes, which no hash or nonce could name.
import type { ServerResponse } from 'node:http';

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
}

/** The one answer to every refused request: nothing in it says which check refused it. */
export const REFUSED_BODY = 'forbidden\n';

/** The raw answer on a socket whose upgrade is refused (the HTTP server is not writing it). */
export function refusedUpgrade(status: 403 | 429 | 503 = 403): string {
  const text = status === 403 ? REFUSED_BODY : status === 429 ? 'too many requests\n' : 'unavailable\n';
  const reason = status === 403 ? 'Forbidden' : status === 429 ? 'Too Many Requests' : 'Service Unavailable';
  return `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`;
}
