/**
 * The two Ethereum stratum dialects the test pool serves on one port, one constant per method. ETHPROXY is
 * JSON-RPC shaped (eth_* methods, pool pushes work as a response with id 0); EthereumStratum/1.0.0 is
 * NiceHash's stratum for ethash (mining.* methods, an extranonce prefix per connection).
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

/** The protocol name a NiceHash-dialect miner puts second in mining.subscribe and the pool echoes back. */
export const NICEHASH_PROTOCOL = "EthereumStratum/1.0.0";

/** id of the ETHPROXY work push: a response to no request. */
export const ETHPROXY_PUSH_ID = 0;
