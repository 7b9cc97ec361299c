/**
 * The RMS tunnel's frames (docs/rms-tunnel.md): what one tunnel connection carries for the miner
 * streams it multiplexes. Every integer is big-endian. The encoders and the reader are the document
 * in code; the tests decode the wire with a reader of their own.
 */
import { MAX_BATCH_MS } from "../../../domain/rms.ts";

export const FrameType = {
  /** client → server: a miner connected (stream id, the miner's address) */
  open: 0x01,
  /** either way: bytes of one stream */
  data: 0x02,
  /** either way: the stream ended */
  close: 0x03,
  /** either way: the receiver took this many more bytes of the stream; the sender may send them */
  credit: 0x04,
  /** server → client: the same bytes to several streams, sent once (RMS3) */
  broadcast: 0x05,
  /** either way, RMS3 from version 4: a line of a stream, which becomes one of its templates (line-codec.ts) */
  line: 0x06,
  /** either way, RMS3 from version 4: a line of a stream as its template's changed fields */
  fields: 0x07,
  /** either way: how many reliable frames of the peer's have arrived, since the tunnel began */
  ack: 0x10,
  /** either way: nothing to say, but the link is alive */
  keepalive: 0x11,
  /** client → server, first frame of every connection: new tunnel or resume of one */
  hello: 0x20,
  /** server → client, answer to hello */
  welcome: 0x21,
  /** client → server, after the hello in its first record: the RMS password's proof and its name */
  client: 0x22,
  /** server → client, after the welcome to a client that sent `client`: what the RMS settings hand it */
  settings: 0x23,
  /** server → client, instead of the welcome to a client that sent `client`: why it is refused */
  refused: 0x24,
  /** server → client, after the welcome to a client of version 3: how long either end holds its records */
  batch: 0x25,
} as const;

/** Frames that are numbered, kept until acknowledged, and sent again after a resume. */
export const isReliable = (type: number): boolean => type >= FrameType.open && type <= FrameType.fields;

export const TUNNEL_ID_BYTES = 16;
/**
 * the hello's version: 2 lets RMS3 records be deflate too (records.ts), 3 lets the welcome be followed
 * by a `batch` frame, 4 lets RMS3 lines cross as `line` and `fields` frames; a server speaks 1 to 4
 */
export const TUNNEL_VERSION = 4;
const FIRST_TUNNEL_VERSION = 1;
/** the first version whose RMS3 records may be deflate */
export const RMS3_DEFLATE_VERSION = 2;
/** the first version that reads a `batch` frame */
export const BATCH_VERSION = 3;
/** the first version whose RMS3 streams may carry `line` and `fields` frames */
export const COMPACT_LINES_VERSION = 4;
/** templates per stream and direction (line-codec.ts): a miner's shares, their answers, its jobs, its difficulty */
export const TEMPLATE_SLOTS = 4;
/** the longest line that may be a template: a job with its branches is left to the record's compression */
export const MAX_TEMPLATE_LINE = 512;
/** the RMS password's derived value (tunnel/password.ts) */
export const PROOF_BYTES = 32;

/** One port of the server's mapping: the client listens on `local` and tunnels to `server`. */
export interface MappedPort {
  server: number;
  /** the server port's listening protocol (spec §4: RMS 2, RMS2 5, RMS3 6) */
  variant: number;
  local: number;
  /** "category-title": the port's coin and its name */
  remark: string;
}

/** What the server's RMS settings hand a client at each connect and resume. */
export interface ClientSettings {
  /** the client's default name */
  name: string;
  announcement: string;
  other: string;
  ports: MappedPort[];
}

export type Frame =
  | { type: typeof FrameType.open; stream: number; address: string }
  | { type: typeof FrameType.data; stream: number; bytes: Uint8Array }
  | { type: typeof FrameType.close; stream: number }
  | { type: typeof FrameType.credit; stream: number; bytes: number }
  | { type: typeof FrameType.broadcast; streams: number[]; bytes: Uint8Array }
  /** slot: which of the stream's templates (0 to TEMPLATE_SLOTS − 1) */
  | { type: typeof FrameType.line; stream: number; slot: number; bytes: Uint8Array }
  | { type: typeof FrameType.fields; stream: number; slot: number; body: Uint8Array }
  | { type: typeof FrameType.ack; received: number }
  | { type: typeof FrameType.keepalive }
  | {
      type: typeof FrameType.hello;
      version: number;
      variant: number;
      tunnel: Uint8Array;
      received: number;
      window: number;
    }
  | {
      type: typeof FrameType.welcome;
      tunnel: Uint8Array;
      resumed: boolean;
      received: number;
      window: number;
    }
  /** proof null: the client has no password */
  | { type: typeof FrameType.client; proof: Uint8Array | null; name: string }
  | ({ type: typeof FrameType.settings } & ClientSettings)
  | { type: typeof FrameType.refused; reason: string }
  /** ms: 0 sends every record in the turn of the event loop that made it */
  | { type: typeof FrameType.batch; ms: number };

/** A frame the peer should not have sent: the tunnel is closed. */
export class TunnelError extends Error {}

/** A text field: length u16 ‖ UTF-8 (cut at 65,535 bytes). */
const text = (s: string): Buffer => {
  const b = Buffer.from(s, "utf8").subarray(0, 0xffff);
  const head = Buffer.alloc(2);
  head.writeUInt16BE(b.length);
  return Buffer.concat([head, b]);
};

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

export function encodeFrame(f: Frame): Uint8Array {
  switch (f.type) {
    case FrameType.open: {
      const address = Buffer.from(f.address.slice(0, 255), "utf8").subarray(0, 255);
      const b = Buffer.alloc(6 + address.length);
      b[0] = f.type;
      b.writeUInt32BE(f.stream, 1);
      b[5] = address.length;
      address.copy(b, 6);
      return b;
    }
    case FrameType.data: {
      const b = Buffer.alloc(9 + f.bytes.length);
      b[0] = f.type;
      b.writeUInt32BE(f.stream, 1);
      b.writeUInt32BE(f.bytes.length, 5);
      b.set(f.bytes, 9);
      return b;
    }
    case FrameType.close: {
      const b = Buffer.alloc(5);
      b[0] = f.type;
      b.writeUInt32BE(f.stream, 1);
      return b;
    }
    case FrameType.credit: {
      const b = Buffer.alloc(9);
      b[0] = f.type;
      b.writeUInt32BE(f.stream, 1);
      b.writeUInt32BE(f.bytes, 5);
      return b;
    }
    case FrameType.broadcast: {
      const head = 3 + 4 * f.streams.length;
      const b = Buffer.alloc(head + 4 + f.bytes.length);
      b[0] = f.type;
      b.writeUInt16BE(f.streams.length, 1);
      for (const [i, s] of f.streams.entries()) b.writeUInt32BE(s, 3 + 4 * i);
      b.writeUInt32BE(f.bytes.length, head);
      b.set(f.bytes, head + 4);
      return b;
    }
    case FrameType.line: {
      const b = Buffer.alloc(8 + f.bytes.length);
      b[0] = f.type;
      b.writeUInt32BE(f.stream, 1);
      b[5] = f.slot;
      b.writeUInt16BE(f.bytes.length, 6);
      b.set(f.bytes, 8);
      return b;
    }
    case FrameType.fields: {
      const b = Buffer.alloc(7 + f.body.length);
      b[0] = f.type;
      b.writeUInt32BE(f.stream, 1);
      b[5] = f.slot;
      b[6] = f.body.length;
      b.set(f.body, 7);
      return b;
    }
    case FrameType.ack: {
      const b = Buffer.alloc(9);
      b[0] = f.type;
      b.writeBigUInt64BE(BigInt(f.received), 1);
      return b;
    }
    case FrameType.keepalive:
      return Uint8Array.of(f.type);
    case FrameType.hello: {
      const b = Buffer.alloc(3 + TUNNEL_ID_BYTES + 12);
      b[0] = f.type;
      b[1] = f.version;
      b[2] = f.variant;
      b.set(f.tunnel, 3);
      b.writeBigUInt64BE(BigInt(f.received), 3 + TUNNEL_ID_BYTES);
      b.writeUInt32BE(f.window, 11 + TUNNEL_ID_BYTES);
      return b;
    }
    case FrameType.welcome: {
      const b = Buffer.alloc(2 + TUNNEL_ID_BYTES + 12);
      b[0] = f.type;
      b.set(f.tunnel, 1);
      b[1 + TUNNEL_ID_BYTES] = f.resumed ? 1 : 0;
      b.writeBigUInt64BE(BigInt(f.received), 2 + TUNNEL_ID_BYTES);
      b.writeUInt32BE(f.window, 10 + TUNNEL_ID_BYTES);
      return b;
    }
    case FrameType.client: {
      const proof = f.proof ?? new Uint8Array(0);
      return Buffer.concat([Uint8Array.of(f.type, proof.length), proof, text(f.name)]);
    }
    case FrameType.settings: {
      const ports = f.ports.map((p) =>
        Buffer.concat([u16(p.server), Uint8Array.of(p.variant), u16(p.local), text(p.remark)]),
      );
      return Buffer.concat([
        Uint8Array.of(f.type),
        text(f.name),
        text(f.announcement),
        text(f.other),
        u16(ports.length),
        ...ports,
      ]);
    }
    case FrameType.refused:
      return Buffer.concat([Uint8Array.of(f.type), text(f.reason)]);
    case FrameType.batch:
      return Buffer.concat([Uint8Array.of(f.type), u16(f.ms)]);
  }
}

/** Cursor over one record's body; any read past its end is a malformed frame. */
class Cursor {
  at = 0;
  constructor(private readonly b: Buffer) {}
  get done(): boolean {
    return this.at >= this.b.length;
  }
  private need(n: number): number {
    if (this.at + n > this.b.length) throw new TunnelError("frame cut short");
    const start = this.at;
    this.at += n;
    return start;
  }
  u8(): number {
    return this.b[this.need(1)] as number;
  }
  u16(): number {
    return this.b.readUInt16BE(this.need(2));
  }
  u32(): number {
    return this.b.readUInt32BE(this.need(4));
  }
  u64(): number {
    const v = this.b.readBigUInt64BE(this.need(8));
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new TunnelError("counter out of range");
    return Number(v);
  }
  bytes(n: number): Uint8Array {
    const start = this.need(n);
    return this.b.subarray(start, start + n);
  }
  text(): string {
    return Buffer.from(this.bytes(this.u16())).toString("utf8");
  }
}

const templateSlot = (slot: number): number => {
  if (slot >= TEMPLATE_SLOTS) throw new TunnelError(`template slot ${slot} (a stream has ${TEMPLATE_SLOTS})`);
  return slot;
};

/** Every frame of one record's body, in order. */
export function decodeFrames(body: Uint8Array): Frame[] {
  const c = new Cursor(Buffer.from(body.buffer, body.byteOffset, body.length));
  const out: Frame[] = [];
  while (!c.done) {
    const type = c.u8();
    switch (type) {
      case FrameType.open: {
        const stream = c.u32();
        out.push({ type, stream, address: Buffer.from(c.bytes(c.u8())).toString("utf8") });
        break;
      }
      case FrameType.data: {
        const stream = c.u32();
        out.push({ type, stream, bytes: c.bytes(c.u32()) });
        break;
      }
      case FrameType.close:
        out.push({ type, stream: c.u32() });
        break;
      case FrameType.credit:
        out.push({ type, stream: c.u32(), bytes: c.u32() });
        break;
      case FrameType.broadcast: {
        const count = c.u16();
        if (count === 0) throw new TunnelError("broadcast to no stream");
        const streams: number[] = [];
        for (let i = 0; i < count; i++) streams.push(c.u32());
        out.push({ type, streams, bytes: c.bytes(c.u32()) });
        break;
      }
      case FrameType.line: {
        const stream = c.u32();
        const slot = templateSlot(c.u8());
        const bytes = c.bytes(c.u16());
        if (bytes.length > MAX_TEMPLATE_LINE)
          throw new TunnelError(`a template line of ${bytes.length} bytes`);
        out.push({ type, stream, slot, bytes });
        break;
      }
      case FrameType.fields: {
        const stream = c.u32();
        const slot = templateSlot(c.u8());
        out.push({ type, stream, slot, body: c.bytes(c.u8()) });
        break;
      }
      case FrameType.ack:
        out.push({ type, received: c.u64() });
        break;
      case FrameType.keepalive:
        out.push({ type });
        break;
      case FrameType.hello: {
        const version = c.u8();
        if (version < FIRST_TUNNEL_VERSION || version > TUNNEL_VERSION)
          throw new TunnelError(`unknown tunnel version ${version}`);
        const variant = c.u8();
        const tunnel = new Uint8Array(c.bytes(TUNNEL_ID_BYTES));
        out.push({ type, version, variant, tunnel, received: c.u64(), window: c.u32() });
        break;
      }
      case FrameType.welcome: {
        const tunnel = new Uint8Array(c.bytes(TUNNEL_ID_BYTES));
        const resumed = c.u8() === 1;
        out.push({ type, tunnel, resumed, received: c.u64(), window: c.u32() });
        break;
      }
      case FrameType.client: {
        const n = c.u8();
        if (n !== 0 && n !== PROOF_BYTES) throw new TunnelError(`password proof of ${n} bytes`);
        const proof = n === 0 ? null : new Uint8Array(c.bytes(n));
        out.push({ type, proof, name: c.text() });
        break;
      }
      case FrameType.settings: {
        const name = c.text();
        const announcement = c.text();
        const other = c.text();
        const ports: MappedPort[] = [];
        for (let i = c.u16(); i > 0; i--)
          ports.push({ server: c.u16(), variant: c.u8(), local: c.u16(), remark: c.text() });
        out.push({ type, name, announcement, other, ports });
        break;
      }
      case FrameType.refused:
        out.push({ type, reason: c.text() });
        break;
      case FrameType.batch: {
        const ms = c.u16();
        if (ms > MAX_BATCH_MS) throw new TunnelError(`a batch window of ${ms} ms (at most ${MAX_BATCH_MS})`);
        out.push({ type, ms });
        break;
      }
      default:
        throw new TunnelError(`unknown frame type ${type}`);
    }
  }
  return out;
}
