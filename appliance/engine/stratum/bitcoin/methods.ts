/** Stratum v1 method names of the Bitcoin family (protocols.md §A), one constant each. */
export const Method = {
  SUBSCRIBE: "mining.subscribe",
  AUTHORIZE: "mining.authorize",
  CONFIGURE: "mining.configure",
  SUBMIT: "mining.submit",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  SUGGEST_DIFFICULTY: "mining.suggest_difficulty",
  PING: "mining.ping",
  GET_TRANSACTIONS: "mining.get_transactions",
  NOTIFY: "mining.notify",
  SET_DIFFICULTY: "mining.set_difficulty",
  SET_EXTRANONCE: "mining.set_extranonce",
  SET_VERSION_MASK: "mining.set_version_mask",
  SET_VERSION: "mining.set_version",
  RECONNECT: "client.reconnect",
  GET_VERSION: "client.get_version",
  SHOW_MESSAGE: "client.show_message",
} as const;

/** BIP320: the version bits a miner may roll. */
export const BIP320_MASK = 0x1fffe000;
