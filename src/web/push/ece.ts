// Web Push message encryption (RFC 8291 over RFC 8188's aes128gcm), with node:crypto alone:
// an ephemeral P-256 key per message, ECDH with the browser's key, HKDF (SHA-256) mixing in its
// auth secret, one AES-128-GCM record. The test checks RFC 8291's own example byte for byte.
import { createCipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
/** HKDF-Expand for one block (every length here is at most 32 bytes). */
const expand = (prk: Buffer, info: Buffer, length: number) => hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);

export interface EncryptOptions {
  /** The server's ephemeral private key (32 bytes): random unless a test fixes it. */
  serverPrivate?: Buffer;
  salt?: Buffer;
  recordSize?: number;
}

/** The body of a push message for a browser whose subscription keys are `uaPublic` (65 bytes) and `authSecret` (16 bytes). */
export function encryptPush(plaintext: Buffer, uaPublic: Buffer, authSecret: Buffer, opts: EncryptOptions = {}): Buffer {
  const ecdh = createECDH('prime256v1');
  if (opts.serverPrivate) ecdh.setPrivateKey(opts.serverPrivate);
  else ecdh.generateKeys();
  const asPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(uaPublic);
  const salt = opts.salt ?? randomBytes(16);
  const rs = opts.recordSize ?? 4096;
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = expand(hmac(authSecret, shared), keyInfo, 32);
  const prk = hmac(salt, ikm);
  const cek = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = expand(prk, Buffer.from('Content-Encoding: nonce\0'), 12);
  // One record, the last: the plaintext, then the delimiter 0x02 (no padding).
  if (plaintext.length + 1 + 16 > rs) throw new Error(`a push message holds at most ${rs - 17} bytes`);
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const body = Buffer.concat([cipher.update(Buffer.concat([plaintext, Buffer.from([2])])), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(21);
  salt.copy(header, 0);
  header.writeUInt32BE(rs, 16);
  header.writeUInt8(asPublic.length, 20);
  return Buffer.concat([header, asPublic, body]);
}
