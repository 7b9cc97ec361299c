/**
 * Ethash light verification for tests, computed by @ethereumjs/ethash so that the truth about a share comes
 * from outside Pithead.
 *
 * Cost, measured on the 2-core reference machine: building epoch 0's light cache (16 MiB, 262 139 rows)
 * takes about 7 s and blocks the event loop, as mkcache is synchronous; the process then holds ≈250 MB more;
 * one light hash takes 70–130 ms (each of its 64 accesses derives two dataset rows from 256 cache rows). So
 * each epoch's cache is built once per process and shared by every pool and miner in it, and callers await
 * `lightCache` before they start serving, never on a socket's line handler.
 */
import { Ethash } from "@ethereumjs/ethash";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { nonceBytes } from "./hex.ts";

/** Blocks per ethash epoch (seed and cache change every epoch). */
export const EPOCH_LENGTH = 30_000;

/** Upper bound when looking for the epoch of a seed hash: well past the last Ethereum PoW epoch (≈518). */
const MAX_EPOCH = 2_048;

/**
 * Time to allow a test hook that builds a cache: 7 s on an idle machine, several times that when other test
 * processes share the two cores.
 */
export const LIGHT_CACHE_BUILD_BUDGET_MS = 120_000;

export interface EthashResult {
  /** the mix digest a miner submits (ETHPROXY) and a block header carries */
  mixDigest: Uint8Array;
  /** the final hash, compared big-endian against the share boundary */
  result: Uint8Array;
}

export interface LightCache {
  readonly epoch: number;
  readonly seedHash: Uint8Array;
  /** hashimoto-light of a 32-byte header hash (the seal hash) and a 64-bit nonce */
  hashimoto(headerHash: Uint8Array, nonce: bigint): EthashResult;
  /** keccak256 over the whole cache, comparable with the `cache_hash` of the ethereum/tests PoW vectors */
  cacheHash(): Uint8Array;
}

type CacheDB = NonNullable<ConstructorParameters<typeof Ethash>[0]>;

/**
 * Ethash.loadEpoc insists on a DB to persist the cache in. We keep one Ethash instance per epoch alive for the
 * whole process instead, so the DB never has to give anything back and storing 16 MiB as hex would only cost.
 */
function discardingDb(): CacheDB {
  const db: CacheDB = {
    get: async () => undefined,
    put: async () => {},
    del: async () => {},
    batch: async () => {},
    shallowCopy: () => db,
    open: async () => {},
  };
  return db;
}

export function seedHashOf(epoch: number): Uint8Array {
  let seed = new Uint8Array(32);
  for (let i = 0; i < epoch; i++) seed = keccak_256(seed);
  return seed;
}

export function epochOfSeed(seedHash: Uint8Array): number {
  let seed = new Uint8Array(32);
  for (let epoch = 0; epoch <= MAX_EPOCH; epoch++) {
    if (Buffer.from(seed).equals(Buffer.from(seedHash))) return epoch;
    seed = keccak_256(seed);
  }
  throw new Error("seed hash of no epoch up to 2048");
}

export const epochOfBlock = (blockNumber: number): number => Math.floor(blockNumber / EPOCH_LENGTH);

const caches = new Map<number, Promise<LightCache>>();
const ready = new Map<number, LightCache>();

/** The light cache of an epoch (given by number or by seed hash), built at most once per process. */
export function lightCache(epochOrSeed: number | Uint8Array): Promise<LightCache> {
  const epoch = typeof epochOrSeed === "number" ? epochOrSeed : epochOfSeed(epochOrSeed);
  let cache = caches.get(epoch);
  if (cache === undefined) {
    cache = buildLightCache(epoch);
    caches.set(epoch, cache);
  }
  return cache;
}

/** The light cache of an epoch if it has been built, without building it. */
export function readyLightCache(epoch: number): LightCache | null {
  return ready.get(epoch) ?? null;
}

async function buildLightCache(epoch: number): Promise<LightCache> {
  const ethash = new Ethash(discardingDb());
  await ethash.loadEpoc(BigInt(epoch * EPOCH_LENGTH));
  const seedHash = seedHashOf(epoch);
  const cache: LightCache = {
    epoch,
    seedHash,
    hashimoto(headerHash, nonce) {
      if (headerHash.length !== 32) throw new Error("header hash must be 32 bytes");
      const { mix, hash } = ethash.run(headerHash, nonceBytes(nonce));
      return { mixDigest: mix, result: hash };
    },
    cacheHash: () => ethash.cacheHash(),
  };
  ready.set(epoch, cache);
  return cache;
}

export async function hashimotoLight(
  epochOrSeed: number | Uint8Array,
  headerHash: Uint8Array,
  nonce: bigint,
): Promise<EthashResult> {
  return (await lightCache(epochOrSeed)).hashimoto(headerHash, nonce);
}
