/**
 * The NiceHash fixed byte (xmrig-proxy's NiceHash splitter, protocols.md "Aggregating many miners"):
 * the job blob's 4-byte little-endian nonce sits at byte 39 (where xmrig writes it for every
 * CryptoNote/RandomX algorithm), and its most significant byte, blob[42], is set per miner. A miner
 * told "nicehash" at login keeps that byte and iterates the other three, so 256 miners can mine one
 * pool job without ever computing the same nonce, and the pool sees one session.
 *
 * The rule for which pool jobs may be split: the blob must reach past byte 42, and blob[42] must be
 * zero as the pool sent it. A non-zero byte means an upstream splitter (nicehash.com, another
 * xmrig-proxy) already reserved it for us, and a share with any other value would be refused. Such
 * jobs are passed through unchanged to one miner (Efficient mode) and cannot carry shared sessions.
 * An upstream splitter that happens to reserve the value 0 looks like an ordinary pool; xmrig-proxy
 * has the same blind spot ("compatible with any pool except nicehash.com").
 */
export const NONCE_OFFSET = 39;
/** hex position of blob[42] */
const BYTE_HEX = (NONCE_OFFSET + 3) * 2;

export const isSplittable = (blob: string): boolean =>
  blob.length >= BYTE_HEX + 2 && blob.slice(BYTE_HEX, BYTE_HEX + 2) === "00";

/** The pool's own value of blob[42] (what an unsplittable job's shares must keep). */
export const poolByte = (blob: string): number => Number.parseInt(blob.slice(BYTE_HEX, BYTE_HEX + 2), 16);

/**
 * The blob with blob[42] set to `hex` (two hex digits): the pool's own string when it has that byte
 * already, as every job of a miner on its own session (Efficient mode) does, byte 0 of a
 * splittable job being the pool's.
 */
export const withByte = (blob: string, hex: string): string =>
  blob.startsWith(hex, BYTE_HEX) ? blob : blob.slice(0, BYTE_HEX) + hex + blob.slice(BYTE_HEX + 2);

/** The nonce's top byte as submitted: the nonce is 4 little-endian bytes, so the last two digits. */
export const submittedByte = (nonceHex: string): string => nonceHex.slice(6, 8).toLowerCase();
