/**
 * RFC 4180 CSV: CRLF between records, a field quoted when it holds a comma, a quote, CR or LF, quotes
 * doubled inside. Text that a spreadsheet would run as a formula (= + - @ tab CR first) gets a
 * leading apostrophe (OWASP's CSV-injection advice); numbers are written as numbers and never altered.
 */
export type CsvCell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function field(cell: CsvCell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function encodeCsv(rows: readonly (readonly CsvCell[])[]): string {
  let out = "";
  for (const row of rows) out += `${row.map(field).join(",")}\r\n`;
  return out;
}
