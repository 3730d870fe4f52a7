/** One CSV line (RFC 4180): quotes a cell holding a comma, quote or line break; neutralises formula starts. */
export function csvLine(cells: (string | number)[]): string {
  return cells
    .map((v) => {
      let s = String(v);
      // A cell a spreadsheet would run as a formula (=, +, @; '-' only when not a number) gets a leading quote.
      if (/^[=+@\t\r]/.test(s) || (s.startsWith('-') && !/^-\d+(\.\d+)?$/.test(s))) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(',');
}
