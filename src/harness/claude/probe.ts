import { parseRegistryRecord, registryFile, type RegistryRecord } from './registry.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { namesNone, unreadableTraces, type AgentProcess, type ProcessTraces } from '../probe.js';

// A claude started by hand: its conversation is the one its registry record names — the
// record of that very process (its pid, and `procStart` equal to its start time; a pid claude
// recorded once may belong to another process now). claude rewrites the record on /clear, so
// reading it again follows the pane into the new conversation; its `status` is the only
// attention a claude without fleetcom's hooks reports.

export function claudeTraces(process: AgentProcess, home: string): ProcessTraces {
  const file = registryFile(home, process.pid);
  let read = readTextFile(file);
  // claude rewrites the record in place at every status change: a read may catch it half written.
  if (read.kind === 'text' && typeof parseRegistryRecord(file, read.text) === 'string') read = readTextFile(file);
  if (read.kind === 'missing') {
    const child = process.env.CLAUDE_CODE_CHILD_SESSION && !process.env.CLAUDE_CODE_FORCE_SESSION_PERSISTENCE;
    return namesNone(child
      ? 'it runs with CLAUDE_CODE_CHILD_SESSION (inherited from another claude), so it keeps no registry record, transcript or hint'
      : `no registry record ${file} yet (claude writes it a few seconds after it starts)`);
  }
  if (read.kind === 'unreadable') return unreadableTraces(`its registry record ${file} cannot be read (${read.reason})`);
  const record = parseRegistryRecord(file, read.text);
  if (typeof record === 'string') return unreadableTraces(`its registry record ${file} cannot be read: ${record}`);
  if (record.procStart === null) {
    return namesNone(`the registry record ${file} has no procStart: it cannot be told apart from an earlier process that had pid ${process.pid}`);
  }
  if (record.procStart !== process.start) {
    return namesNone(`the registry record ${file} is of an earlier process that had pid ${process.pid} (started at tick ${record.procStart}, this one at ${process.start})`);
  }
  const attention = registryAttention(record);
  if (record.cwd !== null && record.cwd !== process.cwd) {
    return { conversation: { kind: 'none', why: `its registry record names the directory ${record.cwd}, but it runs in ${process.cwd}` }, attention };
  }
  if (!isValidId(record.sessionId)) {
    return { conversation: { kind: 'none', why: `its registry record names ${JSON.stringify(record.sessionId)}, not a conversation id` }, attention };
  }
  return { conversation: { kind: 'id', id: record.sessionId, from: `claude registry ${file}` }, attention };
}

/**
 * The record's `status`: `busy` works, `idle` waits for the user's next message, `waiting` is
 * blocked on the user (a permission prompt, a question, a dialog: `waitingFor` says which,
 * read in 2.1.332's binary). Any other value says nothing.
 */
export function registryAttention(record: Pick<RegistryRecord, 'status' | 'waitingFor'>): ProcessTraces['attention'] {
  switch (record.status) {
    case 'busy':
      return { attention: 'working', message: null };
    case 'idle':
      return { attention: 'waiting', message: null };
    case 'waiting':
      return { attention: 'permission', message: record.waitingFor === null ? null : record.waitingFor.slice(0, 200) };
    default:
      return null;
  }
}
