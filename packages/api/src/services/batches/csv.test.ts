import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvLine, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads RFC 4180: CRLF or LF, quoted commas, line breaks and doubled quotes; skips a BOM and empty lines', () => {
    const text = '\uFEFFa,b\r\n"x,1","say ""hi""\nthere"\n\n,\nlast';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x,1', 'say "hi"\nthere'] },
      { line: 5, fields: ['', ''] },
      { line: 6, fields: ['last'] },
    ]);
  });

  it('names the line of a quote left open or of text after a closing quote', () => {
    const lineOf = (text: string) => {
      try {
        parseCsv(text);
      } catch (error) {
        return error instanceof CsvSyntaxError ? [error.line, error.message] : error;
      }
      return undefined;
    };
    expect(lineOf('h\nok\n"open,1')).toEqual([3, 'A quoted field is not closed']);
    expect(lineOf('h\n"a"b,1')).toEqual([2, 'Text after a closing quote']);
  });
});

describe('csvLine', () => {
  it('quotes only the fields that need it, and reads back the same', () => {
    const fields = ['plain', 'a,b', 'say "hi"', 'two\nlines', ''];
    const line = csvLine(fields);
    expect(line).toBe('plain,"a,b","say ""hi""","two\nlines",');
    expect(parseCsv(line)[0]?.fields).toEqual(fields);
  });
});
