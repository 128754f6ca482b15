// fleetcom's version, from package.json: two levels up from src/commands/ and from the
// bundle's dist/chunks/ alike.
import { readFileSync } from 'node:fs';

export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
