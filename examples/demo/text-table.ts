// The summary's tables, as the terminal shows them: a header, a rule, then the rows; the first
// `textColumns` columns left-aligned, the others (numbers) right-aligned.
export function formatTextTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  textColumns = 1,
): string {
  const lines = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  const format = (line: readonly string[]) =>
    line
      .map((cell, column) =>
        column < textColumns ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number),
      )
      .join('  ');
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  return [format(header), rule, ...rows.map(format)].join('\n');
}
