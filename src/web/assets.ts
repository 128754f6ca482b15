// The page's own files, served from the package (dist/web/, made by scripts/bundle.mjs):
// nothing comes from a CDN, so the page works offline and nothing else can change it. The
// names are read once at start; a request names one of them or gets nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Asset {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
};

export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return assets;
  }
  for (const name of names) {
    const ext = /\.[a-z]+$/.exec(name)?.[0] ?? '';
    const type = TYPES[ext];
    if (type === undefined || !/^[a-z0-9][a-z0-9.-]*$/.test(name)) continue;
    assets.set(`/${name}`, { body: readFileSync(join(dir, name)), type });
  }
  const index = assets.get('/index.html');
  if (index !== undefined) assets.set('/', index);
  return assets;
}
