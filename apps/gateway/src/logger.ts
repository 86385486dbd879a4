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

export function maskDigits(text: string): string {
  return text.replace(CARD_LIKE, (run) => {
    const digits = run.replace(/%20|\D/g, '');
    return `${digits.slice(0, 6)}…${digits.slice(-4)}`;
  });
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
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
