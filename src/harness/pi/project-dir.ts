// Where pi keeps one directory's sessions: `<home>/sessions/<this>/`.

/** `/tmp/a:b/c` → `--tmp-a-b-c--`: the leading separator dropped, `/`, `\` and `:` → `-` (its session-format.md). */
export function piProjectDir(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}
