/**
 * Records: the tunnel's unit of compression (docs/rms-tunnel.md). What one end writes in one turn of
 * the event loop is one record — every frame of that turn, for every stream — so RMS2 and RMS3
 * compress the whole batch at once. Each compressed record uses the last 32 KiB of record bodies
 * this link carried the same way as its dictionary: stratum lines repeat the lines before them
 * (method names, workers, job ids), and a lone share line compresses to a fraction of its size.
 *
 *   record = kind (1 byte) ‖ length (4 bytes, big-endian, the body as sent) ‖ body
 *   kind 0: the body is frames; 1: raw deflate of frames (RMS2); 2: zstd of frames (RMS3)
 */
import { deflateRawSync, inflateRawSync, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { ListenProtocol } from "../../../domain/port.ts";
import { TunnelError } from "./frames.ts";

export const RecordKind = { plain: 0, deflate: 1, zstd: 2 } as const;
type RecordKindCode = (typeof RecordKind)[keyof typeof RecordKind];

/** a record's body, sent or decompressed: larger is refused (a decompression bomb among them) */
export const MAX_RECORD_BODY = 1024 * 1024;
/** a writer starts a new record past this many bytes of frames */
export const RECORD_TARGET = 256 * 1024;
const HEADER_BYTES = 5;
/** below this a compressor's header costs more than it saves */
const COMPRESS_FROM = 64;

/** The tunnel variants of spec §4, by listening protocol code. */
export interface Variant {
  code: number;
  name: "RMS" | "RMS2" | "RMS3";
  compression: RecordKindCode;
  /** jobs to several streams cross the tunnel once */
  broadcast: boolean;
}

export const VARIANTS: readonly Variant[] = [
  { code: ListenProtocol.RMS, name: "RMS", compression: RecordKind.plain, broadcast: false },
  { code: ListenProtocol.RMS2, name: "RMS2", compression: RecordKind.deflate, broadcast: false },
  { code: ListenProtocol.RMS3, name: "RMS3", compression: RecordKind.zstd, broadcast: true },
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

  constructor(private readonly variant: Variant) {}

  /** One record of `frames` (encoded), compressed as the variant says when `compress` and when that helps. */
  record(frames: Uint8Array, compress = true): Uint8Array {
    let kind: RecordKindCode = RecordKind.plain;
    let body = frames;
    if (compress && this.variant.compression !== RecordKind.plain && frames.length >= COMPRESS_FROM) {
      const dictionary = { dictionary: this.history.dictionary };
      const packed =
        this.variant.compression === RecordKind.deflate
          ? deflateRawSync(frames, dictionary)
          : zstdCompressSync(frames, dictionary);
      if (packed.length < frames.length) {
        kind = this.variant.compression;
        body = packed;
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
      if (kind !== RecordKind.plain && kind !== this.variant.compression)
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
