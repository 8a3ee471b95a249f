import { createCipheriv, createDecipheriv, type Cipher, type Decipher } from 'node:crypto';

/** Bytes of the id key (AES-128) and of the one block an id carries. */
export const ID_KEY_BYTES = 16;

let sealer: Cipher | null = null;
let opener: Decipher | null = null;
let keysUsed = 0;

/** Changes whenever useIdKey sets a key: what was sealed or opened with another key is stale. */
export const idKeyGeneration = (): number => keysUsed;

/**
 * Sets the key ids are sealed with: the one row of `id_key` (migration 0012), the same for every
 * process and replica and never changed, loaded at boot (`loadIdKey` in libs/db) before any id is
 * encoded or decoded.
 */
export function useIdKey(key: Uint8Array): void {
  if (key.length !== ID_KEY_BYTES) throw new Error(`The id key must be ${ID_KEY_BYTES} bytes.`);
  // ECB over exactly one block, without padding: each update() seals one block at once, so one
  // cipher object serves every id (AES of one block is a keyed permutation of 128-bit values)
  sealer = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  opener = createDecipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  keysUsed++;
}

const notLoaded = (): Error =>
  new Error('No id key: load it (loadIdKey) after migrating the database, before using ids.');

/** AES-128 of each 16-byte block of `blocks` (ECB: each alone), in one call for them all. */
export function sealBlocks(blocks: Uint8Array): Buffer {
  if (sealer === null) throw notLoaded();
  return sealer.update(blocks);
}

/** The block `sealed` (16 bytes) was made from. */
export function openBlock(sealed: Uint8Array): Buffer {
  if (opener === null) throw notLoaded();
  return opener.update(sealed);
}
