/**
 * Just enough RLP to take a real block header apart and put its first 13 fields back together: the ethash
 * seal hash is keccak256 of the header's RLP without mixHash and nonce. Written from the Yellow Paper
 * (appendix B), so that the reference vectors depend on no Ethereum library other than the one under test.
 */

export type RlpItem = Uint8Array | RlpItem[];

function readLength(b: Uint8Array, at: number, bytes: number): number {
  if (at + bytes > b.length) throw new Error("RLP length runs past the input");
  let n = 0;
  for (let i = 0; i < bytes; i++) n = n * 256 + b[at + i];
  return n;
}

function decodeAt(b: Uint8Array, pos: number): [RlpItem, number] {
  if (pos >= b.length) throw new Error("RLP item runs past the input");
  const p = b[pos];
  if (p < 0x80) return [b.subarray(pos, pos + 1), pos + 1];
  let start: number;
  let length: number;
  if (p <= 0xb7 || (p >= 0xc0 && p <= 0xf7)) {
    start = pos + 1;
    length = p - (p <= 0xb7 ? 0x80 : 0xc0);
  } else {
    const lengthBytes = p - (p <= 0xbf ? 0xb7 : 0xf7);
    start = pos + 1 + lengthBytes;
    length = readLength(b, pos + 1, lengthBytes);
  }
  const end = start + length;
  if (end > b.length) throw new Error("RLP item runs past the input");
  if (p <= 0xbf) return [b.subarray(start, end), end];
  const items: RlpItem[] = [];
  let at = start;
  while (at < end) {
    const [item, next] = decodeAt(b, at);
    items.push(item);
    at = next;
  }
  if (at !== end) throw new Error("RLP list length disagrees with its items");
  return [items, end];
}

export function rlpDecode(input: Uint8Array): RlpItem {
  const [item, end] = decodeAt(input, 0);
  if (end !== input.length) throw new Error("bytes after the RLP item");
  return item;
}

function lengthPrefix(length: number, offset: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length);
  const digits: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) digits.unshift(n % 256);
  return Uint8Array.of(offset + 55 + digits.length, ...digits);
}

export function rlpEncode(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0] < 0x80) return item;
    return Buffer.concat([lengthPrefix(item.length, 0x80), item]);
  }
  const body = Buffer.concat(item.map(rlpEncode));
  return Buffer.concat([lengthPrefix(body.length, 0xc0), body]);
}
