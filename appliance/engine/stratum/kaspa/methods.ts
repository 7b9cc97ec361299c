/**
 * The Kaspa bridge stratum (protocols.md §D), one constant per method. It is EthereumStratum/1.0.0
 * in shape (subscribe, authorize, set_extranonce, set_difficulty, notify, submit) with Kaspa work:
 * a pre-PoW hash and a timestamp, and a 64-bit nonce whose high bytes are the extranonce.
 */
export const KaspaMethod = {
  SUBSCRIBE: "mining.subscribe",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  AUTHORIZE: "mining.authorize",
  SUBMIT: "mining.submit",
  SET_DIFFICULTY: "mining.set_difficulty",
  SET_EXTRANONCE: "mining.set_extranonce",
  NOTIFY: "mining.notify",
} as const;

/** What the bridge's subscribe answer and a miner's subscribe name as the protocol. */
export const KASPA_PROTOCOL = "EthereumStratum/1.0.0";

/** A Kaspa nonce is a u64: 16 hex digits, the extranonce prefix first. */
export const NONCE_HEX = 16;

/**
 * The longest prefix a miner is given on a shared session: the pool's prefix and one slot byte.
 * ASICs take at most one or two bytes (protocols.md §2), so a shared session needs a pool prefix of
 * at most one byte.
 */
export const MAX_SHARED_PREFIX_BYTES = 2;

/** The longest prefix a pool may give one session (the miner then has five bytes to roll). */
export const MAX_POOL_PREFIX_BYTES = 3;

/**
 * How a miner wants its jobs: the u64 array form `[jobId, [4 × u64], timestamp]` that most miners
 * read, or the 80-hex header form `[jobId, "prePowHash ‖ timestamp LE"]` that the bridges send to
 * BzMiner and IceRiver firmware (their regex `.*(BzMiner|IceRiverMiner).*`).
 */
export type NotifyForm = "u64" | "hex";

const HEX_FORM_AGENT = /BzMiner|IceRiverMiner/i;
/** Bitmain firmware expects the subscribe answer [null, extranonce, 8 − its length]. */
const BITMAIN_AGENT = /GodMiner/i;

export const notifyFormOf = (agent: string): NotifyForm => (HEX_FORM_AGENT.test(agent) ? "hex" : "u64");
export const isBitmainAgent = (agent: string): boolean => BITMAIN_AGENT.test(agent);
