/** CSV as the spec's export writes it (READINGS A-24): values joined by commas, rows ended by CRLF. */
export type CsvValue = string | number | null | undefined;
export type CsvRow = CsvValue[];

/** RFC 4180 quoting: a value with a comma, a quote or a line break goes in quotes, its quotes doubled. */
export function csvValue(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const toCsv = (rows: CsvRow[]) => rows.map((row) => `${row.map(csvValue).join(',')}\r\n`).join('');

/**
 * Saves text as a file from the browser, without a request. A UTF-8 byte order mark goes first so that Excel
 * (which otherwise reads CSV in the system's ANSI code page) shows accents correctly.
 */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const blob = new Blob([`\uFEFF${text}`], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
