import { describe, expect, it } from 'vitest';
import { checkImageDataUri, MAX_IMAGE_BYTES } from './index';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const uri = (type: string, bytes: number[]) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

describe('checkImageDataUri', () => {
  it('accepts images whose bytes match their declared type', () => {
    expect(checkImageDataUri(uri('image/png', PNG))).toBeUndefined();
    expect(checkImageDataUri(uri('image/jpeg', [0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBeUndefined();
    expect(checkImageDataUri(uri('image/gif', [...Buffer.from('GIF89a')]))).toBeUndefined();
    expect(checkImageDataUri(uri('image/webp', [...Buffer.from('RIFF\0\0\0\0WEBPVP8 ')]))).toBeUndefined();
  });

  it.each([
    ['https://example.com/logo.png', 'not_a_data_uri'],
    ['data:image/png,rawtext', 'not_a_data_uri'],
    [uri('image/svg+xml', [...Buffer.from('<svg onload="alert(1)"/>')]), 'unsupported_type'],
    [uri('text/html', [...Buffer.from('<script>')]), 'unsupported_type'],
    [uri('image/jpeg', PNG), 'content_mismatch'],
    [uri('image/png', [...PNG, ...new Array<number>(MAX_IMAGE_BYTES).fill(0)]), 'too_large'],
  ])('refuses %#: %s', (value, problem) => {
    expect(checkImageDataUri(value)).toBe(problem);
  });
});
