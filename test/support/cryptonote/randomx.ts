/**
 * RandomX through bun:ffi on Debian's librandomx (package librandomx0), in light mode only: a 256 MiB
 * cache per seed key and no 2 GiB dataset, so tests can verify and mine shares on a small machine at a
 * few milliseconds per hash. The library, not our code, computes every hash — which is the point: a
 * test pool that checks shares with it is an authority independent of the engine under test.
 *
 * Caches are expensive (256 MiB each, about a second of Argon2 to fill), so a hasher keeps at most two
 * keys (the current seed and the one before, which is what a Monero epoch change needs), each with its
 * own VM, and reuses the least recently used cache's memory for a new key instead of reallocating.
 */
import { dlopen, FFIType, type Pointer } from "bun:ffi";

/** randomx_flags from randomx.h (1.1.x); only the bits this binding reasons about. */
export const RandomXFlag = {
  LARGE_PAGES: 1,
  HARD_AES: 2,
  FULL_MEM: 4,
  JIT: 8,
  SECURE: 16,
} as const;

export const RANDOMX_HASH_BYTES = 32;

/** Two keys: the current seed and the previous one, as around a Monero seed change. */
const DEFAULT_MAX_KEYS = 2;

const symbols = {
  randomx_get_flags: { args: [], returns: FFIType.i32 },
  randomx_alloc_cache: { args: [FFIType.i32], returns: FFIType.ptr },
  randomx_init_cache: { args: [FFIType.ptr, FFIType.ptr, FFIType.u64], returns: FFIType.void },
  randomx_release_cache: { args: [FFIType.ptr], returns: FFIType.void },
  randomx_create_vm: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.ptr },
  randomx_vm_set_cache: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.void },
  randomx_destroy_vm: { args: [FFIType.ptr], returns: FFIType.void },
  randomx_calculate_hash: {
    args: [FFIType.ptr, FFIType.ptr, FFIType.u64, FFIType.ptr],
    returns: FFIType.void,
  },
} as const;

type RandomXLibrary = ReturnType<typeof dlopen<typeof symbols>>["symbols"];
type NativePointer = Pointer | bigint;

/** Debian multiarch directory for this process's architecture. */
function multiarchDir(): string | null {
  switch (process.arch) {
    case "x64":
      return "/usr/lib/x86_64-linux-gnu";
    case "arm64":
      return "/usr/lib/aarch64-linux-gnu";
    default:
      return null;
  }
}

/** Where to look, in order: an explicit override, the loader's own search, then known directories. */
export function libraryCandidates(): string[] {
  const out: string[] = [];
  const override = process.env.PITHEAD_LIBRANDOMX;
  if (override) out.push(override);
  out.push("librandomx.so.0");
  const dir = multiarchDir();
  if (dir !== null) out.push(`${dir}/librandomx.so.0`);
  out.push("/usr/lib/librandomx.so.0", "/usr/local/lib/librandomx.so", "/usr/local/lib/librandomx.so.0");
  return out;
}

let library: RandomXLibrary | null = null;

function loadLibrary(): RandomXLibrary {
  if (library !== null) return library;
  const failures: string[] = [];
  for (const path of libraryCandidates()) {
    try {
      library = dlopen(path, symbols).symbols;
      return library;
    } catch (e) {
      failures.push(`${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw new Error(`librandomx not found (install Debian's librandomx0):\n${failures.join("\n")}`);
}

/** The flags librandomx recommends for this CPU, minus the ones light mode must not or need not use. */
export function lightModeFlags(): number {
  const recommended = loadLibrary().randomx_get_flags();
  // FULL_MEM needs the 2 GiB dataset; large pages fail without reserved huge pages.
  return recommended & ~(RandomXFlag.FULL_MEM | RandomXFlag.LARGE_PAGES);
}

interface KeySlot {
  cache: NativePointer;
  vm: NativePointer;
}

const toPointer = (p: Pointer | bigint | null): NativePointer | null => (p === null || p === 0 ? null : p);

export class RandomXLight {
  /** insertion order is recency order: the first entry is the least recently used key */
  private readonly slots = new Map<string, KeySlot>();
  private readonly lib: RandomXLibrary;
  private readonly output = new Uint8Array(RANDOMX_HASH_BYTES);
  /** librandomx reads the input through a pointer; an empty input still needs a valid one */
  private readonly emptyInput = new Uint8Array(1);
  private closed = false;
  readonly flags: number;

  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS) {
    if (maxKeys < 1) throw new Error("RandomXLight needs room for at least one key");
    this.lib = loadLibrary();
    this.flags = lightModeFlags();
  }

  /** RandomX(input) with the given key; the returned array is the caller's. */
  hash(key: Uint8Array, input: Uint8Array): Uint8Array {
    if (this.closed) throw new Error("RandomXLight is closed");
    const slot = this.slotFor(key);
    const data = input.length === 0 ? this.emptyInput : input;
    this.lib.randomx_calculate_hash(slot.vm, data, input.length, this.output);
    return this.output.slice();
  }

  /** Number of keys whose cache is currently held. */
  get keys(): number {
    return this.slots.size;
  }

  /** Releases every VM and cache; the hasher cannot be used afterwards. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const slot of this.slots.values()) this.release(slot);
    this.slots.clear();
  }

  private slotFor(key: Uint8Array): KeySlot {
    const id = Buffer.from(key).toString("hex");
    const hit = this.slots.get(id);
    if (hit !== undefined) {
      this.slots.delete(id);
      this.slots.set(id, hit);
      return hit;
    }
    let slot: KeySlot;
    if (this.slots.size >= this.maxKeys) {
      // Re-key the least recently used cache in place: refilling 256 MiB beats freeing and mapping it again.
      const [oldest, reused] = this.slots.entries().next().value as [string, KeySlot];
      this.slots.delete(oldest);
      this.lib.randomx_init_cache(reused.cache, key, key.length);
      // The VM keeps code generated from the old key; setting the cache again regenerates it.
      this.lib.randomx_vm_set_cache(reused.vm, reused.cache);
      slot = reused;
    } else slot = this.create(key);
    this.slots.set(id, slot);
    return slot;
  }

  private create(key: Uint8Array): KeySlot {
    let flags = this.flags;
    let cache = toPointer(this.lib.randomx_alloc_cache(flags));
    if (cache === null && (flags & RandomXFlag.JIT) !== 0) {
      // A system that forbids writable+executable pages refuses a JIT cache; the interpreter still works.
      flags &= ~RandomXFlag.JIT;
      cache = toPointer(this.lib.randomx_alloc_cache(flags));
    }
    if (cache === null) throw new Error("randomx_alloc_cache failed (256 MiB per key)");
    this.lib.randomx_init_cache(cache, key, key.length);
    const vm = toPointer(this.lib.randomx_create_vm(flags, cache, null));
    if (vm === null) {
      this.lib.randomx_release_cache(cache);
      throw new Error(`randomx_create_vm failed (flags ${flags})`);
    }
    return { cache, vm };
  }

  private release(slot: KeySlot): void {
    this.lib.randomx_destroy_vm(slot.vm);
    this.lib.randomx_release_cache(slot.cache);
  }
}

let shared: RandomXLight | null = null;

/**
 * One hasher for the whole test process: a pool and its miners hash with the same few seeds, and
 * separate hashers would each hold their own 256 MiB per seed.
 */
export function sharedRandomX(): RandomXLight {
  if (shared === null) shared = new RandomXLight();
  return shared;
}

/** Releases the shared hasher's memory; the next `sharedRandomX()` starts a fresh one. */
export function closeSharedRandomX(): void {
  shared?.close();
  shared = null;
}
