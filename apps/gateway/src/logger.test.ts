import { Writable } from 'node:stream';
import { containsCardNumber } from '@gateway/core';
import { describe, expect, it } from 'vitest';
import { createLogger, maskDigits } from './logger';

describe('maskDigits', () => {
  it.each([
    ['in groups', 'card 4111 1111 1111 1111 exp 12/30', 'card 411111…1111 exp 12/30'],
    ['with URL-encoded spaces, in a path', '/charge/4111%201111%201111%201111', '/charge/411111…1111'],
    ['of 13 to 19 digits that do not pass Luhn', 'ref 4111111111111112', 'ref 411111…1112'],
    ['with full stops', '/charge/4111.1111.1111.1111/capture', '/charge/411111…1111/capture'],
    ['with other punctuation and symbols', 'note 5555^5555^5555^4444!', 'note 555555…4444!'],
    ['with a mistyped separator', 'card 4111 1111 1111.1111', 'card 411111…1111'],
    ['percent-encoded, decoded', '/hook/%34%31%31%31%2D%31%31%31%31%2D%31%31%31%31%2D%31%31%31%31?x=%2F', '/hook/411111…1111?x=/'],
    ['in full-width digits', '４１１１ １１１１ １１１１ １１１１', '411111…1111'],
    ['with zero-width spaces', '5555\u200b5555\u200b5555\u200b4444', '555555…4444'],
  ])('masks a card number %s', (_, text, masked) => {
    expect(maskDigits(text)).toBe(masked);
    expect(containsCardNumber(maskDigits(text))).toBe(false);
  });

  it.each([
    ['an ordinary path', '/charge/66a1f0c2e4b0a1b2c3d4e5f6/refund?amount=1.50'],
    ['a date, a phone number and a UUID', 'at 2026-11-27 call +61 2 9876 5432 re cb38f6c6-27b1-4c43-8031-0323136f66eb'],
    ['an encoded path without a card number', '/charge?Reference=order%2F1001&At=2026-11-27T03%3A50%3A32Z'],
  ])('leaves %s as it is', (_, text) => {
    expect(maskDigits(text)).toBe(text);
  });
});

describe('the logger', () => {
  it('masks card numbers in disguise in the messages it writes', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info('note held 4111.1111.1111.1111');
    logger.info({ path: '/x' }, 'url %s', 'https://shop.example/?c=%34%31%31%31%20%31%31%31%31%20%31%31%31%31%20%31%31%31%31');
    logger.info('full-width ４１１１ １１１１ １１１１ １１１１ and 5555 5555 5555.4444');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(containsCardNumber(line), line).toBe(false);
    expect(lines.join('')).toContain('411111…1111');
    expect(lines.join('')).toContain('555555…4444');
  });
});
