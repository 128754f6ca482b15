import type { HistoryFile, HistoryRead } from './history.js';

// The row of a one-conversation store file (pi's session file, copilot's events.jsonl), from
// what its head and tail said: none when the whole file holds no typed message (nothing to
// resume); its turns only when the whole file was read.

export interface OneConversation {
  id: string;
  /** The agent's own title, else null (the first prompt stands in). */
  title: string | null;
  firstPrompt: string | null;
  turns: number;
  cwd: string;
}

export function oneConversationRow(file: HistoryFile, whole: boolean, seen: OneConversation): HistoryRead {
  if (seen.firstPrompt === null && whole) return { kind: 'rows', rows: [] };
  const { id, title, firstPrompt, turns, cwd } = seen;
  return { kind: 'rows', rows: [{ id, title: title ?? firstPrompt ?? '', firstPrompt: firstPrompt ?? '', updatedAt: file.mtimeMs, messages: whole ? turns : null, cwd }] };
}
