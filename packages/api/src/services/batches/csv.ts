import Papa from 'papaparse';

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

const SYNTAX_MESSAGES: Partial<Record<string, string>> = {
  MissingQuotes: 'A quoted field is not closed',
  InvalidQuotes: 'Text after a closing quote',
};

/**
 * The line each record starts on, from the offsets where records end (Papa Parse's cursor), asked
 * for in increasing order so the text is read once. Empty lines before a record are skipped.
 */
function lineFinder(text: string) {
  let offset = 0;
  let line = 1;
  return (recordStart: number): number => {
    for (; offset < text.length; offset += 1) {
      const newline = text.charCodeAt(offset) === 0x0a;
      if (offset >= recordStart && !newline) break;
      if (newline) line += 1;
    }
    return line;
  };
}

/**
 * Parses CSV as RFC 4180 has it, with Papa Parse: fields separated by commas, records by CRLF, LF
 * or CR (read as LF, also inside quoted fields); a field in double quotes may hold commas, line
 * breaks and doubled quotes (""); a quote inside an unquoted field is text. A leading byte-order
 * mark and empty lines are skipped; records may have any number of fields (the caller says which
 * is wrong). Throws CsvSyntaxError, with the line the record starts on, for a quote left open or
 * text after a closing quote.
 */
export function parseCsv(csv: string): CsvRecord[] {
  const text = csv.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const startLine = lineFinder(text);
  const records: CsvRecord[] = [];
  let recordStart = 0;
  let problem: CsvSyntaxError | undefined;
  Papa.parse<string[]>(text, {
    delimiter: ',',
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: true,
    step: ({ data, errors, meta }, parser) => {
      const line = startLine(recordStart);
      recordStart = meta.cursor;
      const error = errors.find((e) => SYNTAX_MESSAGES[e.code]);
      if (error) {
        problem = new CsvSyntaxError(line, SYNTAX_MESSAGES[error.code] ?? error.message);
        parser.abort();
      } else {
        records.push({ line, fields: data });
      }
    },
  });
  if (problem) throw problem;
  return records;
}

/**
 * Text a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a carriage return,
 * whatever follows. Papa Parse's own pattern (`escapeFormulae: true`) ends in `.*$` without the `s`
 * flag, so a cell holding a line break escaped it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * CSV text of records (lines end with LF, no line after the last), each field quoted when it
 * needs to be. Text that starts like a formula is prefixed with ' so that a spreadsheet shows it
 * rather than running it (OWASP "CSV injection"); numbers, negative ones included, are written as
 * they are: give amounts as numbers, not text.
 */
export function toCsv(records: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return Papa.unparse(records as Array<Array<string | number>>, { newline: '\n', escapeFormulae: FORMULA_START });
}
