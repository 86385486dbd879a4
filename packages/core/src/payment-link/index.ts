/**
 * Payment link rules shared by the API and the dashboard (which imports this file on its own:
 * it must stay free of Node.js modules).
 */

/**
 * Values of allowedPaymentTypes. The spec names seven and describes five more (an e-wallet, two
 * device wallets, two regional pay-later methods) without naming them; these are our names.
 */
export const PAYMENT_TYPES = [
  'card',
  'upi',
  'payto',
  'payid',
  'shift',
  'paybyaccount',
  'payglocal',
  'paypal',
  'applepay',
  'googlepay',
  'afterpay',
  'zip',
] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** What a hosted payment page can take today: only cards (tokenised with the public key). */
export const HOSTED_PAYMENT_TYPES: readonly PaymentType[] = ['card'];

/** The button's text, in the .NET client's order (it sends 0 for Pay and 1 for Donate). */
export const CALLS_TO_ACTION = ['Pay', 'Donate'] as const;

/** Image types a payment link may carry, by their first bytes. */
const SIGNATURES: Record<string, (bytes: number[]) => boolean> = {
  'image/png': (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => String.fromCharCode(...b.slice(0, 4)) === 'GIF8',
  'image/webp': (b) => String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP',
};

export const IMAGE_TYPES = Object.keys(SIGNATURES);
export const MAX_IMAGE_BYTES = 512 * 1024;

export type ImageProblem = 'not_a_data_uri' | 'unsupported_type' | 'too_large' | 'content_mismatch';

export const IMAGE_PROBLEMS: Record<ImageProblem, string> = {
  not_a_data_uri: 'The image must be a base64 data URI (data:image/png;base64,…)',
  unsupported_type: `The image must be one of ${IMAGE_TYPES.join(', ')}`,
  too_large: `The image must be at most ${MAX_IMAGE_BYTES / 1024} KB`,
  content_mismatch: 'The image data is not of the type it declares',
};

/** Checks a `data:image/…;base64,…` URI: declared type, decoded size, and that the bytes match the type. */
export function checkImageDataUri(uri: string): ImageProblem | undefined {
  const match = /^data:([\w/+.-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(uri);
  if (!match) return 'not_a_data_uri';
  const [, type = '', data = ''] = match;
  const signature = SIGNATURES[type.toLowerCase()];
  if (!signature) return 'unsupported_type';
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (size > MAX_IMAGE_BYTES) return 'too_large';
  const head = atob(data.slice(0, 16));
  return signature([...head].map((c) => c.charCodeAt(0))) ? undefined : 'content_mismatch';
}
