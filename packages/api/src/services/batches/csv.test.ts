import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv, toCsv } from './csv';

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

  it('names the line a record starts on when a quote is left open or followed by text', () => {
    const lineOf = (text: string) => {
      try {
        parseCsv(text);
      } catch (error) {
        return error instanceof CsvSyntaxError ? [error.line, error.message] : error;
      }
      return undefined;
    };
    expect(lineOf('h\nok\n"open,1')).toEqual([3, 'A quoted field is not closed']);
    expect(lineOf('h\nok\n"open,1\nmore\nlines\n')).toEqual([3, 'A quoted field is not closed']);
    expect(lineOf('h\n"a"b,1')).toEqual([2, 'Text after a closing quote']);
    expect(lineOf('h\r\n"two\r\nlines",1\r\n\r\n"a"b,1')).toEqual([5, 'Text after a closing quote']);
  });

  it('counts lines the same with CRLF, LF or CR, across quoted line breaks and skipped empty lines', () => {
    const lines = (text: string) => parseCsv(text).map((record) => record.line);
    expect(lines('h\r\n\r\n\r\nx,"a\r\nb"\r\ny')).toEqual([1, 4, 6]);
    expect(lines('h\n\n\nx,"a\nb"\ny')).toEqual([1, 4, 6]);
    expect(lines('h\r\r\rx,"a\rb"\ry')).toEqual([1, 4, 6]);
    expect(lines('\n\nh\né,"ü\n"\n \n')).toEqual([3, 4, 6]);
  });

  it('keeps a quote inside an unquoted field as text', () => {
    expect(parseCsv('ab"c,1')).toEqual([{ line: 1, fields: ['ab"c', '1'] }]);
  });
});

describe('toCsv', () => {
  it('quotes only the fields that need it, and reads back the same', () => {
    const fields = ['plain', 'a,b', 'say "hi"', 'two\nlines', ''];
    const line = toCsv([fields]);
    expect(line).toBe('plain,"a,b","say ""hi""","two\nlines",');
    expect(parseCsv(line)[0]?.fields).toEqual(fields);
  });

  it("prefixes text a spreadsheet would run as a formula with ', and leaves numbers alone", () => {
    const text = ['=HYPERLINK("http://x","y")', '+1', '-5', '@SUM(A1)', '\tx', '\rx', 'a=b', 'x-1'];
    expect(toCsv([text])).toBe(`"'=HYPERLINK(""http://x"",""y"")","'+1","'-5","'@SUM(A1)","'\tx","'\rx",a=b,x-1`);
    expect(toCsv([['=HYPERLINK("http://x",\n"y")', '-1\r\n2', 'a\n=b']])).toBe(`"'=HYPERLINK(""http://x"",\n""y"")","'-1\r\n2","a\n=b"`);
    expect(
      toCsv([
        [-5, 15.5, 'x'],
        ['a', -0.01, ''],
      ]),
    ).toBe('-5,15.5,x\na,-0.01,');
  });
});
