import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Envelope encryption with AES-256-GCM. Each sealed value has its own random data key; the data
 * key is stored wrapped (encrypted) by a master key from configuration, named by a key id so that
 * master keys can rotate: new values use the current key, old ones stay readable while their key
 * is in the keyring, and `rewrap` moves a value to the current key without touching its data.
 * The associated data binds a ciphertext to its place (e.g. "vault:<id>:pan"): a value copied to
 * another row or field does not decrypt.
 */

export interface Keyring {
  /** Id of the key that wraps new data keys. */
  readonly currentKeyId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

export interface Sealed {
  keyId: string;
  /** Data key wrapped by the master key: iv (12) | tag (16) | ciphertext (32). */
  wrappedKey: Buffer;
  /** The value: iv (12) | tag (16) | ciphertext. */
  ciphertext: Buffer;
}

const IV = 12;
const TAG = 16;

function encrypt(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(IV, IV + TAG));
  return Buffer.concat([decipher.update(sealed.subarray(IV + TAG)), decipher.final()]);
}

function masterKey(keyring: Keyring, keyId: string): Buffer {
  const key = keyring.keys.get(keyId);
  if (!key) throw new Error(`master key ${keyId} is not in the keyring`);
  return key;
}

export function seal(plaintext: string, aad: string, keyring: Keyring): Sealed {
  const dataKey = randomBytes(32);
  try {
    const keyId = keyring.currentKeyId;
    return {
      keyId,
      wrappedKey: encrypt(masterKey(keyring, keyId), dataKey, `key:${aad}`),
      ciphertext: encrypt(dataKey, Buffer.from(plaintext, 'utf8'), aad),
    };
  } finally {
    dataKey.fill(0);
  }
}

export function open(sealed: Sealed, aad: string, keyring: Keyring): string {
  const dataKey = decrypt(masterKey(keyring, sealed.keyId), sealed.wrappedKey, `key:${aad}`);
  try {
    return decrypt(dataKey, sealed.ciphertext, aad).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}

/** Re-wraps the data key with the current master key; the ciphertext is unchanged. */
export function rewrap(sealed: Sealed, aad: string, keyring: Keyring): Sealed {
  if (sealed.keyId === keyring.currentKeyId) return sealed;
  const dataKey = decrypt(masterKey(keyring, sealed.keyId), sealed.wrappedKey, `key:${aad}`);
  try {
    return {
      keyId: keyring.currentKeyId,
      wrappedKey: encrypt(masterKey(keyring, keyring.currentKeyId), dataKey, `key:${aad}`),
      ciphertext: sealed.ciphertext,
    };
  } finally {
    dataKey.fill(0);
  }
}

/**
 * Reads a keyring from text: "id:base64key,id:base64key", current key first. Keys are 32 random
 * bytes (e.g. `openssl rand -base64 32`); ids are short names such as "2026-11".
 */
export function parseKeyring(text: string): Keyring {
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf(':');
      const id = part.slice(0, at).trim();
      const key = Buffer.from(part.slice(at + 1).trim(), 'base64');
      if (at <= 0 || !/^[A-Za-z0-9._-]{1,32}$/.test(id)) throw new Error('each master key must be written "id:base64key"');
      if (key.length !== 32) throw new Error(`master key ${id} must be 32 bytes (base64 of 32 random bytes)`);
      return [id, key] as const;
    });
  const [first] = entries;
  if (!first) throw new Error('the keyring has no key');
  if (new Set(entries.map(([id]) => id)).size !== entries.length) throw new Error('master key ids must be unique');
  return { currentKeyId: first[0], keys: new Map(entries) };
}

export function newMasterKey(): string {
  return randomBytes(32).toString('base64');
}
