import * as path from 'node:path';
import { listDir } from '../fs-read.js';
import { fieldProblem, isJsonObject } from '../json-shape.js';

// What claude's transcripts hold and where: the project directory of a cwd, and which user
// records are messages the person typed (shared by the resume checks and `history`).

/** claude caps a project directory name at this many UTF-16 units, then appends a hash. */
const SLUG_CAP = 200;

/** A part of a message's content as claude writes it: `{"type": "text", "text": "…"}` and others. */
interface ContentPart {
  type: string;
  text?: string;
}

const isContentPart = (part: unknown): part is ContentPart => fieldProblem(part, { type: 'string', text: 'string?' }) === null;

/** The message content claude writes (a string or a list of parts); null for any other shape. */
function messageContent(message: unknown): string | ContentPart[] | null {
  if (!isJsonObject(message)) return null;
  const content = message.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) && content.every(isContentPart) ? content : null;
}

/**
 * What claude records for a local slash command (`/exit`, `/clear`) typed before any message:
 * user records that hold only these wrappers. A conversation of nothing else cannot be
 * resumed into anything (measured on 2.1.197: an `/exit` sometimes leaves three of them).
 */
const LOCAL_COMMAND = /<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>[\s\S]*?<\/\1>/g;

export function isTypedText(text: string): boolean {
  return text.replace(LOCAL_COMMAND, '').trim() !== '';
}

/** `<home>/projects/<slug>`: every UTF-16 unit of the cwd that is not an ASCII letter or digit → `-` (8.1). */
export function claudeSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * The project directories that may hold this cwd's transcripts. Up to 200 characters the slug
 * is exact. Longer, claude keeps 200 and appends a hash we do not reproduce, so every
 * directory carrying that prefix is a possibility (more candidates make correlation ambiguous
 * rather than wrong); the untruncated slug of older versions is included too.
 */
export function claudeProjectDirs(home: string, cwd: string): string[] {
  const projects = path.join(home, 'projects');
  const slug = claudeSlug(cwd);
  if (slug.length <= SLUG_CAP) return [path.join(projects, slug)];
  const prefix = `${slug.slice(0, SLUG_CAP)}-`;
  return listDir(projects)
    .filter((entry) => entry.isDirectory() && (entry.name === slug || entry.name.startsWith(prefix)))
    .map((entry) => path.join(projects, entry.name))
    .sort();
}

/** A `user` record the person wrote: not claude's meta record, not only local-command wrappers. */
export function isUserRecord(line: string): boolean {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return false;
  }
  return isUserRecordValue(record);
}

/** isUserRecord of a record already parsed. */
export function isUserRecordValue(record: unknown): boolean {
  // A user record without `message` still counts (8.2); a non-boolean isMeta is not claude's.
  if (fieldProblem(record, { type: 'string', isMeta: 'boolean?' }) !== null) return false;
  const { type, isMeta, message } = record as { type: string; isMeta?: boolean; message?: unknown };
  if (type !== 'user' || isMeta === true) return false;
  // Any other message shape counts as a message (8.2 as written).
  const content = messageContent(message);
  if (content === null) return true;
  if (typeof content === 'string') return isTypedText(content);
  return content.some((part) => part.type !== 'text' || isTypedText(part.text ?? ''));
}
