// Where grok keeps a directory's sessions: `<home>/sessions/<encoded cwd>/<id>/`.

/** `%` → `%25`, then `/` → `%2F`; everything else literal (`/a%b` → `%2Fa%25b`). */
export function grokEncodeCwd(cwd: string): string {
  return cwd.replaceAll('%', '%25').replaceAll('/', '%2F');
}
