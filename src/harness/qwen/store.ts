import * as path from 'node:path';

// Where qwen-code keeps a directory's conversations (measured on 0.24.4): read by its harness
// and its history reader alike.

/** The project folder qwen keeps a cwd's conversations in. */
export function qwenProjectDir(home: string, cwd: string): string {
  return path.join(home, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
}

/** Where qwen keeps the transcript of `id` for `cwd` (it need not exist). */
export function qwenTranscript(home: string, cwd: string, id: string): string {
  return path.join(qwenProjectDir(home, cwd), 'chats', `${id}.jsonl`);
}
