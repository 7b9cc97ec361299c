/**
 * Algorithm categories of spec §3 and what the appliance derives from them: the stratum protocol family
 * the engine speaks for a category, and the work a share of difficulty 1 stands for (hashrate factor).
 * Categories are data: a coin names its category, the category names its family.
 */

/** Every category the spec (§3, Currency config) allows, in the spec's order. */
export const CATEGORIES = [
  "ethhash",
  "eth1hash",
  "ethhash2d",
  "sha256",
  "kheavyhash",
  "scrypt",
  "dynexsolve",
  "octopus",
  "blake2s",
  "eaglesong",
  "equihash",
  "blake2b",
  "lbry",
  "x11",
  "progpow",
  "blake3",
  "randomx",
  "kawpow",
  "sha512256d",
  "autoykos2",
  "nexapow",
  "karlsenhash",
  "ghostrider",
  "kawpow2",
  "blake3s",
  "cuckatoo32",
  "nginx",
  "zksnark",
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * Stratum protocol families of design.md (one codec folder each under engine/stratum), plus "forward"
 * for the NGINX coin, which is a plain TCP relay with no parsing at all.
 */
export const FAMILIES = [
  "bitcoin",
  "ethereum",
  "cryptonote",
  "kaspa",
  "alephium",
  "equihash",
  "kawpow",
  "passthrough",
  "forward",
] as const;
export type FamilyName = (typeof FAMILIES)[number];

/**
 * Why each mapping: protocols.md §A–H. Categories whose wire protocol is not public or does not follow
 * one of the codec families (Dynex, ALEO, Grin, Conflux, CKB, Ergo, Nexa, Sia/Handshake) are relayed as
 * passthrough with worker rewriting only, until a codec for them exists.
 */
const FAMILY_OF: Record<Category, FamilyName> = {
  ethhash: "ethereum",
  eth1hash: "ethereum",
  ethhash2d: "ethereum",
  sha256: "bitcoin",
  kheavyhash: "kaspa",
  scrypt: "bitcoin",
  dynexsolve: "passthrough",
  octopus: "passthrough",
  blake2s: "bitcoin",
  eaglesong: "passthrough",
  equihash: "equihash",
  blake2b: "passthrough",
  lbry: "bitcoin",
  x11: "bitcoin",
  // FIRO/SERO-style ProgPoW pools use the KawPow message shapes (set_target, 7-field notify).
  progpow: "kawpow",
  blake3: "alephium",
  randomx: "cryptonote",
  kawpow: "kawpow",
  sha512256d: "bitcoin",
  autoykos2: "passthrough",
  nexapow: "passthrough",
  // Karlsen and Pyrin (blake3s) are Kaspa forks speaking the Kaspa bridge protocol.
  karlsenhash: "kaspa",
  ghostrider: "bitcoin",
  kawpow2: "kawpow",
  blake3s: "kaspa",
  cuckatoo32: "passthrough",
  nginx: "forward",
  zksnark: "passthrough",
};

/**
 * Hashes represented by one unit of stratum difficulty, only where protocols.md states it. Absent means
 * the engine must derive work from the share target (equihash, ETHPROXY boundary, KawPow) or that the
 * factor is not known; a guessed factor would silently skew the fee accounting, which is worse.
 */
const HASH_FACTOR: Partial<Record<Category, number>> = {
  sha256: 2 ** 32,
  scrypt: 2 ** 16,
  lbry: 2 ** 24,
  // cpuminer-multi uses factor 1 (Σd · 2^32) for x11 and blake2s; marked uncertain for other pools.
  x11: 2 ** 32,
  blake2s: 2 ** 32,
  kheavyhash: 2 ** 32,
  // EthereumStratum/1.0.0 (NiceHash) difficulty; ETHPROXY sessions derive work from the boundary.
  ethhash: 2 ** 32,
  eth1hash: 2 ** 32,
  ethhash2d: 2 ** 32,
  blake3: 2 ** 34,
  randomx: 1,
};

/**
 * What one unit of a category's hashrate counts (spec §9: hashrate is shown per algorithm): an
 * Equihash share proves solutions, so pools and miners show Sol/s; Grin's Cuckatoo counts graphs
 * (G/s). Every other category counts hashes.
 */
const HASH_UNIT: Partial<Record<Category, string>> = {
  equihash: "Sol",
  cuckatoo32: "G",
};

/** "H", "Sol" or "G": the unit the console writes before "/s", after the 1000-step prefix. */
export function hashUnitOf(category: Category): string {
  return HASH_UNIT[category] ?? "H";
}

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

export function familyOf(category: Category): FamilyName {
  return FAMILY_OF[category];
}

/** Hashes per unit of difficulty, or null when work must come from the target (see HASH_FACTOR). */
export function hashFactorOf(category: Category): number | null {
  return HASH_FACTOR[category] ?? null;
}

/**
 * The proxy modes (spec §4 codes: 0 Efficient, 1 Compatible, 2 Pool) each family is offered with:
 * exactly the modes its engine folder implements (engine/stratum/families.ts; a test holds the two
 * equal). A family absent here is not implemented: its coins are listed but a port for them is refused.
 */
const FAMILY_MODES: Partial<Record<FamilyName, readonly number[]>> = {
  // no Compatible: the reference pool pushes a new extranonce after every authorize (a fee worker's too)
  alephium: [0, 2],
  bitcoin: [0, 1, 2],
  // no Compatible: a CryptoNote session has one login and a share names no worker
  cryptonote: [0, 2],
  // no Compatible of its own: an Equihash miner that cannot take a new NONCE_1 pays that way already
  equihash: [0, 2],
  // no Compatible: an ETHPROXY session has one login, so fee shares cannot share a miner's session
  ethereum: [0, 2],
  // no Compatible of its own: a Kaspa miner that cannot take a new extranonce pays that way already
  kaspa: [0, 2],
  // no Compatible of its own: a KawPow miner that cannot take a new nonce prefix pays that way already
  kawpow: [0, 2],
  // Efficient only: the relay does not understand these coins' jobs, so it can neither split a
  // session's nonce space (Pool) nor submit fee shares on a miner's session (Compatible)
  passthrough: [0],
  // the NGINX coin is a plain TCP relay: no mode applies, it is stored as Efficient
  forward: [0],
};

/**
 * Families that cannot divert work to fee wallets: the pass-through relay does not understand its
 * coins' jobs, so it can neither move a miner to a fee pool nor build a fee share; the forward coin
 * does not parse at all. Every other family takes fee in each mode it offers.
 */
const NO_FEE_FAMILIES: ReadonlySet<FamilyName> = new Set(["passthrough", "forward"]);

/** Whether fee wallets with a ratio can be used on a port of this category. */
export function feeSupported(category: Category): boolean {
  return !NO_FEE_FAMILIES.has(familyOf(category));
}

/** The modes a port of this category may use; empty when its protocol family is not implemented. */
export function modesOf(category: Category): readonly number[] {
  return FAMILY_MODES[familyOf(category)] ?? [];
}
