// The web token: random per user, kept 0600 in `<config dir>/web/token` (a 0700 directory), so
// a link opened on a phone last week still works after a reboot; `--rotate-token` replaces it
// and every page signed in with the old one is out. The server reads it again when the file
// changes, so a rotation reaches a server already running.
import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, FleetError } from '../errors.js';
import { createWhole, ensureSafeDir, makePrivateDirs, writeFileAtomicSync } from '../fs-safety.js';
import { configDir, type Env } from '../paths.js';

/** 32 random bytes, base64url: 43 characters of a URL fragment. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function webDir(env: Env): string {
  return join(configDir(env), 'web');
}

export function tokenFile(env: Env): string {
  return join(webDir(env), 'token');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The token in `file` (made when missing, replaced when `rotate`). Throws naming the file when it is not safe or not a token. */
export function loadToken(file: string, rotate: boolean, uid: number | undefined = process.getuid?.()): string {
  const dir = join(file, '..');
  makePrivateDirs(dir);
  ensureSafeDir(dir, uid);
  if (rotate) {
    const token = newToken();
    writeFileAtomicSync(file, `${token}\n`);
    return token;
  }
  createWhole(file, `${newToken()}\n`); // made now, or kept as it is
  return readToken(file, uid);
}

/** The token the file holds now; refuses a file others could read or write, or that holds no token. */
export function readToken(file: string, uid: number | undefined = process.getuid?.()): string {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    throw new FleetError(`cannot read the web token ${file}: ${errnoCode(error) ?? String(error)}`);
  }
  if (!stat.isFile()) throw new FleetError(`the web token ${file} is not a regular file; remove it and run fleetcom web again`);
  if ((stat.mode & 0o077) !== 0) throw new FleetError(`the web token ${file} can be read by others (mode ${(stat.mode & 0o777).toString(8)}); rotate it: fleetcom web --rotate-token`);
  if (uid !== undefined && stat.uid !== uid) throw new FleetError(`the web token ${file} belongs to uid ${stat.uid}, not to you (uid ${uid}); remove it and run fleetcom web again`);
  const token = readFileSync(file, 'utf8').trim();
  if (!TOKEN.test(token)) throw new FleetError(`the web token ${file} holds no token fleetcom made; rotate it: fleetcom web --rotate-token`);
  return token;
}

/** The token as it is now, read again only when the file changed (a rotation while serving). */
export class TokenSource {
  private stamp = '';
  private token: string;

  constructor(private readonly file: string, first: string) {
    this.token = first;
    this.stamp = this.stampNow();
  }

  current(): string {
    const stamp = this.stampNow();
    if (stamp !== this.stamp && stamp !== '') {
      try {
        this.token = readToken(this.file);
        this.stamp = stamp;
      } catch {
        // A half-replaced or unsafe file: keep serving with the token known, refuse nothing new.
      }
    }
    return this.token;
  }

  private stampNow(): string {
    try {
      const s = lstatSync(this.file);
      return `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return '';
    }
  }
}
