/**
 * CryptoNote varints: 7 bits per byte, least significant group first, high bit set on every byte but
 * the last (the same encoding as protobuf's unsigned varint). Block headers, transactions and the
 * hashing blob's transaction count all use it.
 */

/** A u64 never needs more than ten groups of seven bits. */
const MAX_VARINT_BYTES = 10;

export function encodeVarint(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) throw new RangeError("varints are unsigned");
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

/** The value and the offset just past it, or null when the bytes end first or the varint is too long. */
export function decodeVarint(bytes: Uint8Array, offset: number): { value: bigint; next: number } | null {
  let value = 0n;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const b = bytes[offset + i];
    if (b === undefined) return null;
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if ((b & 0x80) === 0) return { value, next: offset + i + 1 };
  }
  return null;
}
