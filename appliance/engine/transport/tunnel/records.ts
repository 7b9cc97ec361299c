/**
 * Records: the tunnel's unit of compression (docs/rms-tunnel.md). What one end writes in one turn of
 * the event loop is one record — every frame of that turn, for every stream — so RMS2 and RMS3
 * compress the whole batch at once. Each compressed record uses the last 32 KiB of record bodies
 * this link carried the same way as its dictionary: stratum lines repeat the lines before them
 * (method names, workers, job ids), and a lone share line compresses to a fraction of its size.
 *
 *   record = kind (1 byte) ‖ length (4 bytes, big-endian, the body as sent) ‖ body
 *   kind 0: the body is frames; 1: raw deflate of frames (RMS2, RMS3); 2: zstd of frames (RMS3)
 */
import { deflateRawSync, inflateRawSync, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { ListenProtocol } from "../../../domain/port.ts";
import { RMS3_DEFLATE_VERSION, TunnelError } from "./frames.ts";

export const RecordKind = { plain: 0, deflate: 1, zstd: 2 } as const;
type RecordKindCode = (typeof RecordKind)[keyof typeof RecordKind];

/** a record's body, sent or decompressed: larger is refused (a decompression bomb among them) */
export const MAX_RECORD_BODY = 1024 * 1024;
/** a writer starts a new record past this many bytes of frames */
export const RECORD_TARGET = 256 * 1024;
const HEADER_BYTES = 5;
/**
 * Below this nothing can be saved. A share's answer is about 50 bytes of frame, and against the
 * history it deflates to a third of that: a higher floor sent every answer plain.
 */
const COMPRESS_FROM = 16;
/** RMS3 tries zstd on records from this size: below it zstd's frame header loses to deflate's */
const ZSTD_FROM = 1024;

/** The tunnel variants of spec §4, by listening protocol code. */
export interface Variant {
  code: number;
  name: "RMS" | "RMS2" | "RMS3";
  /** the compressed kinds its records may be (besides plain) */
  kinds: readonly RecordKindCode[];
  /** jobs to several streams cross the tunnel once */
  broadcast: boolean;
  /** lines may cross as their templates' changed fields (from COMPACT_LINES_VERSION) */
  compact: boolean;
}

export const VARIANTS: readonly Variant[] = [
  { code: ListenProtocol.RMS, name: "RMS", kinds: [], broadcast: false, compact: false },
  { code: ListenProtocol.RMS2, name: "RMS2", kinds: [RecordKind.deflate], broadcast: false, compact: false },
  {
    code: ListenProtocol.RMS3,
    name: "RMS3",
    kinds: [RecordKind.deflate, RecordKind.zstd],
    broadcast: true,
    compact: true,
  },
];

export const variantOf = (code: number): Variant | null => VARIANTS.find((v) => v.code === code) ?? null;

/** bytes of earlier record bodies that serve as the next record's dictionary (deflate's whole window) */
export const HISTORY_BYTES = 32 * 1024;

/**
 * The last HISTORY_BYTES of the record bodies one direction of one link has carried, in a buffer of
 * twice that size: a record is appended in place and the tail moved to the front only when the
 * buffer is full, so a record costs a copy of its own bytes instead of a new 32-KiB buffer (which,
 * a record per share each way at both ends, was most of the tunnel's garbage).
 */
class History {
  private readonly bytes = Buffer.alloc(HISTORY_BYTES * 2);
  private end = 0;

  /** a view, valid until the next add */
  get dictionary(): Buffer {
    return this.bytes.subarray(Math.max(0, this.end - HISTORY_BYTES), this.end);
  }

  add(body: Uint8Array): void {
    if (body.length >= HISTORY_BYTES) {
      this.bytes.set(body.subarray(body.length - HISTORY_BYTES), 0);
      this.end = HISTORY_BYTES;
      return;
    }
    if (this.end + body.length > this.bytes.length) {
      const keep = Math.min(this.end, HISTORY_BYTES);
      this.bytes.copyWithin(0, this.end - keep, this.end);
      this.end = keep;
    }
    this.bytes.set(body, this.end);
    this.end += body.length;
  }
}

const EMPTY = Buffer.alloc(0);

/** Makes one direction's records of one link (a new link starts with an empty history). */
export class RecordWriter {
  private readonly history = new History();
  private readonly deflate: boolean;
  private readonly zstd: boolean;

  /**
   * `peerVersion`: the tunnel version the other end reads (a server: its client's hello's; a client:
   * its own, which a server that answers it speaks). A reader accepts every kind of its variant.
   */
  constructor(variant: Variant, peerVersion: number) {
    this.zstd = variant.kinds.includes(RecordKind.zstd);
    // version 1 knew RMS3's records as zstd only
    this.deflate =
      variant.kinds.includes(RecordKind.deflate) && !(this.zstd && peerVersion < RMS3_DEFLATE_VERSION);
  }

  /**
   * One record of `frames` (encoded), compressed when `compress` and when that helps: RMS2 deflates,
   * RMS3 deflates and, from ZSTD_FROM bytes, also tries zstd (to a peer of version 1: zstd only), and
   * the shortest form is sent.
   */
  record(frames: Uint8Array, compress = true): Uint8Array {
    let kind: RecordKindCode = RecordKind.plain;
    let body = frames;
    if (compress && frames.length >= COMPRESS_FROM) {
      const dictionary = { dictionary: this.history.dictionary };
      if (this.deflate) {
        const packed = deflateRawSync(frames, dictionary);
        if (packed.length < body.length) {
          kind = RecordKind.deflate;
          body = packed;
        }
      }
      if (this.zstd && (!this.deflate || frames.length >= ZSTD_FROM)) {
        const packed = zstdCompressSync(frames, dictionary);
        if (packed.length < body.length) {
          kind = RecordKind.zstd;
          body = packed;
        }
      }
    }
    this.history.add(frames);
    const out = Buffer.alloc(HEADER_BYTES + body.length);
    out[0] = kind;
    out.writeUInt32BE(body.length, 1);
    out.set(body, HEADER_BYTES);
    return out;
  }
}

/** Cuts a byte stream into records and returns each one's frames, decompressed. */
export class RecordReader {
  private pending: Buffer = EMPTY;
  private readonly history = new History();

  constructor(private readonly variant: Variant) {}

  /** The records `chunk` completes; only the bytes of an incomplete one are copied to be kept. */
  push(chunk: Uint8Array): Uint8Array[] {
    let b =
      this.pending.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.pending, chunk]);
    const out: Uint8Array[] = [];
    while (b.length >= HEADER_BYTES) {
      const kind = b[0] as number;
      const length = b.readUInt32BE(1);
      if (length > MAX_RECORD_BODY) throw new TunnelError("record too long");
      if (kind !== RecordKind.plain && !(this.variant.kinds as readonly number[]).includes(kind))
        throw new TunnelError(`record kind ${kind} is not ${this.variant.name}'s`);
      if (b.length < HEADER_BYTES + length) break;
      out.push(this.unpack(kind, b.subarray(HEADER_BYTES, HEADER_BYTES + length)));
      b = b.subarray(HEADER_BYTES + length);
    }
    this.pending = b.length === 0 ? EMPTY : Buffer.from(b);
    return out;
  }

  /** `body` may be a view of the caller's chunk: what is returned is always the reader's own. */
  private unpack(kind: number, body: Buffer): Uint8Array {
    let frames: Uint8Array;
    if (kind === RecordKind.plain) frames = Buffer.from(body);
    else
      try {
        const options = { maxOutputLength: MAX_RECORD_BODY, dictionary: this.history.dictionary };
        frames =
          kind === RecordKind.deflate ? inflateRawSync(body, options) : zstdDecompressSync(body, options);
      } catch {
        throw new TunnelError("record does not decompress within 1 MiB");
      }
    this.history.add(frames);
    return frames;
  }
}
