/** Bitcoin serialization pieces the coinbase and the block need, as hex (protocols.md byte orders). */

export function le32(n: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b.toString("hex");
}

export function le64(n: number): string {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b.toString("hex");
}

/** CompactSize: the length prefix of scripts, input/output lists and the block's transaction count. */
export function varint(n: number): string {
  if (n < 0xfd) return n.toString(16).padStart(2, "0");
  if (n <= 0xffff) {
    const b = Buffer.alloc(3);
    b[0] = 0xfd;
    b.writeUInt16LE(n, 1);
    return b.toString("hex");
  }
  const b = Buffer.alloc(5);
  b[0] = 0xfe;
  b.writeUInt32LE(n, 1);
  return b.toString("hex");
}

/** A data push of up to 75 bytes (the coinbase tag and the extranonce are far shorter). */
export function pushData(hex: string): string {
  const len = hex.length / 2;
  if (len > 75) throw new Error(`push of ${len} bytes`);
  return len.toString(16).padStart(2, "0") + hex;
}

/**
 * The height as BIP34 requires it at the start of the coinbase scriptSig: exactly what the daemon's
 * `CScript() << height` produces — OP_0 / OP_1..OP_16 for small heights, otherwise a minimal
 * little-endian script number (a 0x00 byte added when the top bit is set, which would mean negative).
 */
export function bip34Height(height: number): string {
  if (height === 0) return "00";
  if (height <= 16) return (0x50 + height).toString(16);
  const bytes: number[] = [];
  for (let h = height; h > 0; h = Math.floor(h / 256)) bytes.push(h % 256);
  if (((bytes[bytes.length - 1] as number) & 0x80) !== 0) bytes.push(0);
  return pushData(Buffer.from(bytes).toString("hex"));
}

/** Display-order hex (as RPC prints hashes) to the byte order inside blocks, or back. */
export const reverseHex = (hex: string): string => Buffer.from(hex, "hex").reverse().toString("hex");
