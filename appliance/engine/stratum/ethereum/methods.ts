/**
 * The two Ethereum stratum dialects (protocols.md §B), one constant per method. ETHPROXY is JSON-RPC
 * shaped: eth_* requests, work pushed as a response with id 0. EthereumStratum/1.0.0 is NiceHash's
 * stratum for ethash: mining.* methods and an extranonce prefix per session.
 */
export type Dialect = "ethproxy" | "nicehash";

export const EthproxyMethod = {
  SUBMIT_LOGIN: "eth_submitLogin",
  GET_WORK: "eth_getWork",
  SUBMIT_WORK: "eth_submitWork",
  SUBMIT_HASHRATE: "eth_submitHashrate",
} as const;

export const NicehashMethod = {
  SUBSCRIBE: "mining.subscribe",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  AUTHORIZE: "mining.authorize",
  SUBMIT: "mining.submit",
  SET_DIFFICULTY: "mining.set_difficulty",
  NOTIFY: "mining.notify",
  SET_EXTRANONCE: "mining.set_extranonce",
} as const;

/** The protocol a NiceHash-dialect miner names second in mining.subscribe, echoed by the pool. */
export const NICEHASH_PROTOCOL = "EthereumStratum/1.0.0";

/** id of an ETHPROXY work push: a response to no request. */
export const WORK_PUSH_ID = 0;

/**
 * The longest extranonce prefix an EthereumStratum/1.0.0 miner takes (protocols.md §B): a shared
 * session gives each miner the pool's prefix followed by one slot byte, so it needs a pool prefix of
 * at most two bytes.
 */
export const MAX_PREFIX_BYTES = 3;
