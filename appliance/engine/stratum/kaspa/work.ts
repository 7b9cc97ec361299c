/**
 * Kaspa work as the proxy carries it: the pre-PoW hash as 64 hex digits (the 32 bytes whose
 * little-endian u64 words the array form sends) and the timestamp in milliseconds as a bigint.
 * Both notify forms are built from this without a JSON number in between: the u64 words exceed
 * 2^53, which JSON.parse would silently round (protocols.md §D).
 */

const U64_MAX = (1n << 64n) - 1n;

/**
 * The four u64 words (decimal text, little-endian reads of the hash) → the hash as hex. Built from
 * bytes in one piece: a string grown by += is a rope of many cells, and jobs keep this one.
 */
export function prePowFromWords(words: readonly string[]): string | null {
  if (words.length !== 4) return null;
  const bytes = new Uint8Array(32);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) {
    const v = BigInt(words[i] as string);
    if (v > U64_MAX) return null;
    view.setBigUint64(i * 8, v, true);
  }
  return Buffer.from(bytes).toString("hex");
}

/** The hash as hex → its four little-endian u64 words as decimal text. */
export function wordsOfPrePow(prePow: string): string[] {
  const b = Buffer.from(prePow, "hex");
  const view = new DataView(b.buffer, b.byteOffset, 32);
  return [0, 1, 2, 3].map((i) => view.getBigUint64(i * 8, true).toString());
}

/** A u64 as 16 hex digits, least significant byte first. */
export function leHex(v: bigint): string {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, v, true);
  return Buffer.from(bytes).toString("hex");
}

/** 16 hex digits, least significant byte first → the u64. */
export function fromLeHex(hex: string): bigint {
  const b = Buffer.from(hex, "hex");
  return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);
}
