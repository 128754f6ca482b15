// Aligned text columns for the human tables (`ls`, `doctor`): the last column is not padded.
export function alignColumns(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - [...c].length))).join('  ');
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
