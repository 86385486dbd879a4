import { maskCardNumbers } from '@gateway/core';
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Card data must never reach a log: fields that could hold it are redacted
 * by name, and any digit run that looks like a card number is masked in messages as a last guard.
 */
const REDACT = [
  'cardNumber',
  'ccv',
  'cvc',
  'number',
  'secretKey',
  'authorization',
  '*.cardNumber',
  '*.ccv',
  '*.cvc',
  '*.number',
  '*.secretKey',
  '*.authorization',
  'req.headers["x-secretkey"]',
  'req.headers.authorization',
];

/** 13 to 19 digits, a space, dash or URL-encoded space allowed between them: what may be a card number. */
const CARD_LIKE = /\b\d(?:(?:[ -]|%20)?\d){12,18}\b/g;
const maskCard = (digits: string) => `${digits.slice(0, 6)}…${digits.slice(-4)}`;

/**
 * Masks what may be a card number: any 13 to 19 digits in a row (Luhn or not), then every card
 * number the free-text check finds in the disguises it sees through (core's maskCardNumbers:
 * other separators, invisible characters, digits of other scripts, escapes), in which case the
 * text is written in its plain form (escapes decoded) with the number masked.
 */
export function maskDigits(text: string): string {
  return maskCardNumbers(
    text.replace(CARD_LIKE, (run) => maskCard(run.replace(/%20|\D/g, ''))),
    maskCard,
  );
}

/**
 * Logs to `destination`, by default standard output written asynchronously: a line is queued and
 * written by libuv's thread pool, lines that come while a write is under way go together in the
 * next, and whatever is queued is written when the process exits (pino flushes on exit). A
 * request therefore never waits for a write(2) of its log lines.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACT, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? maskDigits(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}
