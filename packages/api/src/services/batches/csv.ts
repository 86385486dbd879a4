/** A record of CSV text: its fields, and the line of the text it starts on (1 = the first). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const FIELD_END = /[,\r\n]/g;

/**
 * Parses CSV as RFC 4180 has it: fields separated by commas, records by CRLF or LF; a field in
 * double quotes may hold commas, line breaks and doubled quotes (""). A leading byte-order mark
 * and empty lines are skipped. Throws CsvSyntaxError for a quote left open or text after one.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field: string;
      if (text[i] === '"') {
        field = '';
        for (i += 1; ; i += 2) {
          const quote = text.indexOf('"', i);
          if (quote < 0) throw new CsvSyntaxError(start, 'A quoted field is not closed');
          field += text.slice(i, quote);
          i = quote;
          if (text[i + 1] !== '"') break;
          field += '"';
        }
        i += 1;
        line += field.split('\n').length - 1;
        if (i < text.length && !',\r\n'.includes(text[i]!)) throw new CsvSyntaxError(line, 'Text after a closing quote');
      } else {
        FIELD_END.lastIndex = i;
        const end = FIELD_END.exec(text)?.index ?? text.length;
        field = text.slice(i, end);
        i = end;
      }
      fields.push(field);
      if (text[i] !== ',') break;
      i += 1;
    }
    if (text[i] === '\r') i += 1;
    if (text[i] === '\n') i += 1;
    line += 1;
    if (fields.length > 1 || fields[0] !== '') records.push({ line: start, fields });
  }
  return records;
}

/** One CSV line; a field holding a comma, quote or line break is quoted, its quotes doubled. */
export function csvLine(fields: string[]): string {
  return fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field)).join(',');
}
