/**
 * Equihash stratum (ZIP 301, protocols.md §F, as Zcash-family pools speak it), one constant per
 * method. A session's NONCE_1 (the subscribe answer) starts the 32-byte header nonce; a share
 * carries the rest of it, NONCE_2, with the time and the solution.
 */
export const EquihashMethod = {
  SUBSCRIBE: "mining.subscribe",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  AUTHORIZE: "mining.authorize",
  SUBMIT: "mining.submit",
  SET_TARGET: "mining.set_target",
  NOTIFY: "mining.notify",
  SET_EXTRANONCE: "mining.set_extranonce",
} as const;

/** bytes of the header nonce, NONCE_1 ‖ NONCE_2 */
export const NONCE_BYTES = 32;
/**
 * NONCE_2 bytes a miner keeps at least. A shared session gives each miner the pool's NONCE_1
 * followed by one slot byte, so it needs a pool NONCE_1 of at most 32 − 1 − 4 bytes; a dedicated
 * session passes the pool's NONCE_1 on unchanged. Four bytes of NONCE_2 are 2^32 Equihash runs a
 * job, far beyond any miner between two jobs (ZIP 301 leaves the split to the pool).
 */
export const MIN_NONCE2_BYTES = 4;
export const MAX_PREFIX_BYTES = NONCE_BYTES - MIN_NONCE2_BYTES;
export const MAX_SHARED_POOL_PREFIX_BYTES = MAX_PREFIX_BYTES - 1;
