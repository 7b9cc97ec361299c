/**
 * KENC framing (docs/kenc.md): the hello both ends send, the per-connection keys derived from the
 * operator's KENC key with HKDF-SHA256, and AES-256-GCM frames whose nonce is a per-direction
 * counter (sent in each frame by version 1, implicit since version 2). The port (kenc.ts) and the
 * farm-side client (client/) share it, so the two cannot drift; the tests check it against vectors
 * made by other implementations.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** "PKNC" then the version: a hello that is not this is not a KENC peer */
const MAGIC = Uint8Array.of(0x50, 0x4b, 0x4e, 0x43);
/**
 * Both ends count frames, so the nonce need not travel: version 2 leaves it out (12 bytes less per
 * frame, which on a tunnel is per share). A port answers a client in the client's version and still
 * speaks 1 to earlier clients.
 */
export const KENC_VERSION = 2;
const FIRST_VERSION = 1;
export const RANDOM_BYTES = 32;
export const HELLO_BYTES = MAGIC.length + 1 + RANDOM_BYTES;
/** HKDF salt: fixed, so both ends derive the same keys from the same key and randoms */
export const HKDF_SALT = "pithead-kenc-v1";
const LENGTH_BYTES = 2;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** a frame's plaintext: a stratum line of a few KB fits; a longer write is cut into several frames */
export const MAX_FRAME_PLAINTEXT = 16384;

/** Which way a frame travels; its number opens every nonce of that direction. */
export const Direction = { clientToServer: 1, serverToClient: 2 } as const;
export type DirectionCode = (typeof Direction)[keyof typeof Direction];
const INFO_LABEL: Record<DirectionCode, string> = { 1: "c2s", 2: "s2c" };

export function makeHello(
  random: Uint8Array = randomBytes(RANDOM_BYTES),
  version: number = KENC_VERSION,
): Uint8Array {
  const out = new Uint8Array(HELLO_BYTES);
  out.set(MAGIC);
  out[MAGIC.length] = version;
  out.set(random, MAGIC.length + 1);
  return out;
}

export interface Hello {
  random: Uint8Array;
  version: number;
}

/** The peer's hello; null while fewer than HELLO_BYTES arrived. Throws if not a KENC hello this end speaks. */
export function readHello(b: Uint8Array): Hello | null {
  const prefix = Math.min(b.length, MAGIC.length);
  for (let i = 0; i < prefix; i++) if (b[i] !== MAGIC[i]) throw new KencError("not a KENC hello");
  const version = b[MAGIC.length];
  if (version !== undefined && (version < FIRST_VERSION || version > KENC_VERSION))
    throw new KencError(`KENC version ${version}, not one this end speaks`);
  if (b.length < HELLO_BYTES) return null;
  return { random: b.slice(MAGIC.length + 1, HELLO_BYTES), version: version as number };
}

/** Collects the peer's hello from the first bytes of a stream. */
export class HelloReader {
  private got: Uint8Array = new Uint8Array(0);

  /** The peer's hello and what followed it, once complete; null while more is needed. */
  push(chunk: Uint8Array): (Hello & { rest: Uint8Array }) | null {
    this.got = Buffer.concat([this.got, chunk]);
    const hello = readHello(this.got);
    if (hello === null) return null;
    const rest = this.got.subarray(HELLO_BYTES);
    this.got = new Uint8Array(0);
    return { ...hello, rest };
  }
}

/**
 * HKDF-SHA256(IKM = the key's UTF-8, salt, info = label ‖ client random ‖ server random), 32 bytes.
 * The salt names what the link carries (HKDF_SALT: one miner; the RMS tunnel has its own), so a
 * peer of one kind never authenticates to a port of the other.
 */
export function deriveKey(
  kencKey: string,
  direction: DirectionCode,
  clientRandom: Uint8Array,
  serverRandom: Uint8Array,
  salt = HKDF_SALT,
): Uint8Array {
  const info = Buffer.concat([Buffer.from(INFO_LABEL[direction]), clientRandom, serverRandom]);
  return new Uint8Array(hkdfSync("sha256", Buffer.from(kencKey, "utf8"), salt, info, 32));
}

/**
 * One end's codecs once the hellos are exchanged: the opener of what the peer sends and the sealer
 * of what this end sends, in the link's version (the client's).
 */
export function sessionCodecs(
  kencKey: string,
  role: "client" | "server",
  clientRandom: Uint8Array,
  serverRandom: Uint8Array,
  salt = HKDF_SALT,
  version: number = KENC_VERSION,
): { opener: FrameOpener; sealer: FrameSealer } {
  const c2s = deriveKey(kencKey, Direction.clientToServer, clientRandom, serverRandom, salt);
  const s2c = deriveKey(kencKey, Direction.serverToClient, clientRandom, serverRandom, salt);
  return role === "server"
    ? {
        opener: new FrameOpener(c2s, Direction.clientToServer, version),
        sealer: new FrameSealer(s2c, Direction.serverToClient, version),
      }
    : {
        opener: new FrameOpener(s2c, Direction.serverToClient, version),
        sealer: new FrameSealer(c2s, Direction.clientToServer, version),
      };
}

/** Why a frame was refused; the connection is closed and the reason logged. */
export class KencError extends Error {}

function nonceFor(direction: DirectionCode, counter: bigint): Buffer {
  const n = Buffer.alloc(NONCE_BYTES);
  n.writeUInt32BE(direction, 0);
  n.writeBigUInt64BE(counter, 4);
  return n;
}

/**
 * Why a tag failed, by version, for the first frame and a later one: since version 2 a frame out of
 * order fails its tag too, its nonce not being the next.
 */
const TAG_FAILS = {
  1: [
    "the first frame does not authenticate (wrong KENC key, or an altered or cut frame)",
    "frame does not authenticate",
  ],
  2: [
    "the first frame does not authenticate (wrong KENC key, or an altered, cut or reordered frame)",
    "frame does not authenticate (altered, cut, replayed or out of order)",
  ],
} as const;

/** bytes before a frame's ciphertext: the length, and in version 1 the nonce */
const headerBytes = (version: number) => LENGTH_BYTES + (version === FIRST_VERSION ? NONCE_BYTES : 0);

/** Turns one direction's plaintext into frames: length ‖ (version 1: nonce) ‖ ciphertext ‖ tag. */
export class FrameSealer {
  private counter = 0n;
  private readonly header: number;

  constructor(
    private readonly key: Uint8Array,
    private readonly direction: DirectionCode,
    version: number = KENC_VERSION,
  ) {
    this.header = headerBytes(version);
  }

  seal(plain: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = [];
    for (let at = 0; at < plain.length; at += MAX_FRAME_PLAINTEXT)
      parts.push(this.frame(plain.subarray(at, at + MAX_FRAME_PLAINTEXT)));
    return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  }

  private frame(chunk: Uint8Array): Uint8Array {
    const header = Buffer.alloc(this.header);
    header.writeUInt16BE(chunk.length, 0);
    const nonce = nonceFor(this.direction, this.counter++);
    if (this.header > LENGTH_BYTES) nonce.copy(header, LENGTH_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    cipher.setAAD(header.subarray(0, LENGTH_BYTES));
    return Buffer.concat([header, cipher.update(chunk), cipher.final(), cipher.getAuthTag()]);
  }
}

/**
 * Reads one direction's frames from a byte stream. A frame sealed with another nonce than the next
 * of this direction (replayed, reordered, dropped) or whose tag fails (wrong key, altered, truncated
 * and misaligned) throws: a stream that failed once is never read further. Version 1 sends the nonce,
 * so a frame out of order is told apart before decryption; since version 2 it fails the tag.
 */
export class FrameOpener {
  private counter = 0n;
  private pending: Uint8Array = new Uint8Array(0);
  private readonly header: number;

  constructor(
    private readonly key: Uint8Array,
    private readonly direction: DirectionCode,
    version: number = KENC_VERSION,
  ) {
    this.header = headerBytes(version);
  }

  /** bytes of an incomplete frame held back */
  get buffered(): number {
    return this.pending.length;
  }

  /** The plaintext of every complete frame in `chunk` (and what was held back before it). */
  push(chunk: Uint8Array): Uint8Array[] {
    let b = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: Uint8Array[] = [];
    while (b.length >= LENGTH_BYTES) {
      const length = ((b[0] as number) << 8) | (b[1] as number);
      if (length === 0 || length > MAX_FRAME_PLAINTEXT) throw new KencError("frame length out of range");
      const total = this.header + length + TAG_BYTES;
      if (b.length < total) break;
      out.push(this.open(b.subarray(0, total), length));
      b = b.subarray(total);
    }
    this.pending = new Uint8Array(b);
    return out;
  }

  private open(frame: Uint8Array, length: number): Uint8Array {
    const nonce = nonceFor(this.direction, this.counter);
    const explicit = this.header > LENGTH_BYTES;
    if (explicit && !nonce.equals(frame.subarray(LENGTH_BYTES, this.header)))
      throw new KencError(
        this.counter === 0n ? "first frame out of order" : "frame replayed or out of order",
      );
    const decipher = createDecipheriv("aes-256-gcm", this.key, nonce);
    decipher.setAAD(frame.subarray(0, LENGTH_BYTES));
    decipher.setAuthTag(frame.subarray(this.header + length));
    try {
      const plain = Buffer.concat([
        decipher.update(frame.subarray(this.header, this.header + length)),
        decipher.final(),
      ]);
      this.counter++;
      return plain;
    } catch {
      throw new KencError(TAG_FAILS[explicit ? 1 : 2][this.counter === 0n ? 0 : 1]);
    }
  }
}
