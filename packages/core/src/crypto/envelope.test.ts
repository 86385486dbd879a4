import { describe, expect, it } from 'vitest';
import { newMasterKey, open, parseKeyring, rewrap, seal } from './envelope';

const older = newMasterKey();
const newer = newMasterKey();

describe('envelope encryption', () => {
  const keyring = parseKeyring(`k1:${older}`);

  it('round-trips and never stores the plaintext', () => {
    const sealed = seal('4111111111111111', 'vault:abc:pan', keyring);
    expect(sealed.keyId).toBe('k1');
    expect(sealed.ciphertext.toString('latin1')).not.toContain('4111111111111111');
    expect(open(sealed, 'vault:abc:pan', keyring)).toBe('4111111111111111');
  });

  it('uses a fresh data key and iv every time', () => {
    const a = seal('same', 'x', keyring);
    const b = seal('same', 'x', keyring);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.wrappedKey.equals(b.wrappedKey)).toBe(false);
  });

  it('refuses a ciphertext moved to another place, or tampered with', () => {
    const sealed = seal('123', 'vault:abc:ccv', keyring);
    expect(() => open(sealed, 'vault:other:ccv', keyring)).toThrow();
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) };
    const last = tampered.ciphertext.length - 1;
    tampered.ciphertext.writeUInt8((tampered.ciphertext.readUInt8(last) ^ 1) & 0xff, last);
    expect(() => open(tampered, 'vault:abc:ccv', keyring)).toThrow();
  });

  it('rotates: old values stay readable, rewrap moves them to the new key', () => {
    const sealed = seal('5555555555554444', 'vault:r:pan', keyring);
    const rotated = parseKeyring(`k2:${newer},k1:${older}`);
    expect(open(sealed, 'vault:r:pan', rotated)).toBe('5555555555554444');
    const moved = rewrap(sealed, 'vault:r:pan', rotated);
    expect(moved.keyId).toBe('k2');
    expect(moved.ciphertext.equals(sealed.ciphertext)).toBe(true);
    expect(open(moved, 'vault:r:pan', parseKeyring(`k2:${newer}`))).toBe('5555555555554444');
    expect(() => open(sealed, 'vault:r:pan', parseKeyring(`k2:${newer}`))).toThrow(/not in the keyring/);
  });

  it('parses keyrings strictly', () => {
    expect(() => parseKeyring('')).toThrow();
    expect(() => parseKeyring('k1:c2hvcnQ=')).toThrow(/32 bytes/);
    expect(() => parseKeyring(`k1:${older},k1:${newer}`)).toThrow(/unique/);
    expect(parseKeyring(` a:${older} , b:${newer} `).currentKeyId).toBe('a');
  });
});
