/**
 * Kaspa work as the proxy carries it: the pre-PoW hash as 64 hex digits (the 32 bytes whose
 * little-endian u64 words the array form sends) and the timestamp in milliseconds as a bigint.
 * Both notify forms are built from this without a JSON number in between: the u64 words exceed
 * 2^53, which JSON.parse would silently round (protocols.md §D).
 */

const U64_MAX = (1n << 64n) - 1n;

/** The four u64 words (decimal text, little-endian reads of the hash) → the hash as hex. */
export function prePowFromWords(words: readonly string[]): string | null {
  if (words.length !== 4) return null;
  let hex = "";
  for (const w of words) {
    const v = BigInt(w);
    if (v > U64_MAX) return null;
    hex += leHex(v);
  }
  return hex;
}

/** The hash as hex → its four little-endian u64 words as decimal text. */
export function wordsOfPrePow(prePow: string): string[] {
  const words: string[] = [];
  for (let i = 0; i < 4; i++) words.push(fromLeHex(prePow.slice(i * 16, i * 16 + 16)).toString());
  return words;
}

/** A u64 as 16 hex digits, least significant byte first. */
export function leHex(v: bigint): string {
  let out = "";
  for (let i = 0; i < 8; i++)
    out += Number((v >> BigInt(8 * i)) & 0xffn)
      .toString(16)
      .padStart(2, "0");
  return out;
}

/** 16 hex digits, least significant byte first → the u64. */
export function fromLeHex(hex: string): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  return v;
}

export const isU64 = (v: bigint): boolean => v >= 0n && v <= U64_MAX;
