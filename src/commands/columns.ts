// Aligned text columns for the human tables (`ls`, `doctor`): the last column is not padded.
// Widths are found in a loop: spreading 300 000 rows into Math.max overflowed the stack.
export function alignColumns(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h) => [...h].length);
  for (const r of rows) {
    for (const [i, cell] of r.entries()) widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
  }
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - [...c].length))).join('  ');
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
