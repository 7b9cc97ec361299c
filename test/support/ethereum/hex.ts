/**
 * Hex in the shapes the Ethereum stratum dialects use: ETHPROXY writes 0x-prefixed hex, EthereumStratum/1.0.0
 * (NiceHash) writes bare hex. Every parser here is strict (exact length, hex digits only) because the test
 * pool must reject what a real pool would reject instead of guessing what a sloppy peer meant.
 */

const HEX = /^[0-9a-fA-F]*$/;

export const strip0x = (s: string): string => (s.startsWith("0x") || s.startsWith("0X") ? s.slice(2) : s);

/** `chars` hex digits exactly (with or without 0x), or null. */
export function hexOfLength(value: unknown, chars: number): string | null {
  if (typeof value !== "string") return null;
  const bare = strip0x(value);
  return bare.length === chars && HEX.test(bare) ? bare.toLowerCase() : null;
}

export const bytesToHex = (b: Uint8Array): string =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");

export function hexToBytes(hex: string): Uint8Array {
  const bare = strip0x(hex);
  if (bare.length % 2 !== 0 || !HEX.test(bare)) throw new Error(`not hex bytes: ${hex}`);
  return new Uint8Array(Buffer.from(bare, "hex"));
}

/** Big-endian unsigned value of a byte string (hashes compare with targets this way). */
export const bytesToBigInt = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${bytesToHex(b)}`));

/** Fixed-width big-endian hex without prefix. */
export function bigIntToHex(value: bigint, bytes: number): string {
  if (value < 0n || value >= 1n << BigInt(bytes * 8)) throw new Error(`${value} does not fit ${bytes} bytes`);
  return value.toString(16).padStart(bytes * 2, "0");
}

/** The 8-byte nonce as it sits in the block header: big-endian. */
export const nonceBytes = (nonce: bigint): Uint8Array => hexToBytes(bigIntToHex(nonce, 8));
