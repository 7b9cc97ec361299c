/**
 * Alephium stratum as the public pools speak it (protocols.md §E; alephium/mining-pool lib/stratum.js),
 * one constant per method. It is not the EIP-1571-style "AlephiumStratum/1.0.0" draft in the
 * Alephium docs, which those same docs say pools do not follow: jobs are JSON objects, a submit is a
 * named-params object, and the extranonce is pushed after mining.authorize.
 */
export const AlphMethod = {
  SUBSCRIBE: "mining.subscribe",
  AUTHORIZE: "mining.authorize",
  SUBMIT: "mining.submit",
  SET_EXTRANONCE: "mining.set_extranonce",
  SET_DIFFICULTY: "mining.set_difficulty",
  NOTIFY: "mining.notify",
  /** the reference pool accepts and ignores it; so does the proxy */
  SUBMIT_HASHRATE: "alph_submitHashrate",
} as const;

/** The nonce a share carries: 24 bytes, hashed in front of the header blob. */
export const NONCE_BYTES = 24;

/**
 * Miners take at most one prefix byte from a proxy beyond the pool's own extranonce (the reference
 * pool gives 2 bytes): a shared session gives each miner that extranonce followed by one slot byte
 * (slot-bytes.ts), so one session carries 256 miners. The longest pool extranonce a session is
 * shared with: the slot byte must still leave the miners nonce room.
 */
export const MAX_SHARED_POOL_PREFIX_BYTES = 8;

/**
 * Alephium has 4 groups, so 16 chains: a job names its chain (fromGroup → toGroup), and a block's
 * hash says which chain it belongs to (its last two bytes as a big-endian u16, mod 16).
 */
export const GROUPS = 4;
