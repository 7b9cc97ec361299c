/**
 * KawPow stratum (protocols.md §G, as RVN pools and kawpowminer speak it), one constant per method.
 * A session's nonce prefix (the subscribe answer's extranonce1) starts every 8-byte nonce; shares
 * carry the full nonce, the header hash and the mix hash, all 0x-prefixed.
 */
export const KawpowMethod = {
  SUBSCRIBE: "mining.subscribe",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  AUTHORIZE: "mining.authorize",
  SUBMIT: "mining.submit",
  SET_TARGET: "mining.set_target",
  NOTIFY: "mining.notify",
  SET_EXTRANONCE: "mining.set_extranonce",
} as const;

/**
 * Nonce prefixes (NiceHash's KawPow specification, protocols.md §G). A pool may give 0–2 bytes; a
 * splitter in front of miners adds one byte of its own, so miners take up to 3 (NiceHash does just
 * that, and 5 free bytes still cover ~3.6 GH/s for five minutes). So a shared session gives each
 * miner the pool's prefix followed by one slot byte and needs a pool prefix of at most 2 bytes; a
 * dedicated session passes the pool's prefix on unchanged, so a pool's 3 bytes are accepted there.
 */
export const MAX_PREFIX_BYTES = 3;
export const MAX_SHARED_POOL_PREFIX_BYTES = 2;
/** hex digits of the 8-byte nonce */
export const NONCE_HEX = 16;
