/**
 * A tunnel's state at either end (docs/rms-tunnel.md): its streams, the frames of this turn of the
 * event loop or of its batch window (sent as one record), the replay log and the count of what
 * arrived, and keepalive. It outlives a connection: `detach` when the link drops keeps everything,
 * `attach` on the next link sends again what the peer did not get, and the miners behind the
 * streams notice nothing.
 */
import type { ByteSocket } from "../line-writer.ts";
import {
  COMPACT_LINES_VERSION,
  encodeFrame,
  type Frame,
  FrameType,
  isReliable,
  TunnelError,
} from "./frames.ts";
import { RECORD_TARGET, type RecordWriter, type Variant } from "./records.ts";
import { ReplayLog } from "./replay-log.ts";
import { Stream, type StreamSink } from "./stream.ts";

/** bytes a stream may have in flight each way unless the ends announce otherwise */
export const DEFAULT_WINDOW = 64 * 1024;
/**
 * An acknowledgement goes out when this many reliable frames arrived since the last one, and with
 * each keepalive: not with every record, where on a farm's trickle of shares it would cost more
 * than the share itself saves by compression.
 */
const ACK_EVERY = 64;
/**
 * With a batch window, a record that reaches this many bytes of stream data goes at once: its 23
 * fixed bytes (record header and KENC framing) are then under 1 % of it, and waiting saves nothing.
 */
const BATCH_FULL_BYTES = 4096;

export interface TunnelTiming {
  /** a link idle this long sends a keepalive (and any acknowledgement due) */
  keepaliveMs: number;
  /** a link that brought nothing this long is dead and dropped */
  deadMs: number;
}

export const DEFAULT_TUNNEL_TIMING: TunnelTiming = { keepaliveMs: 10_000, deadMs: 35_000 };

export interface SessionOwner {
  /** server: a miner stream opened; its local end, or null to refuse it */
  opened(stream: number, address: string): StreamSink | null;
  /** the link brought nothing for too long */
  dead(): void;
}

export class TunnelSession {
  private readonly streams = new Map<number, Stream>();
  private link: ByteSocket | null = null;
  /** this link's records (its compression history) */
  private writer: RecordWriter | null = null;
  private readonly replay = new ReplayLog();
  /** reliable frames of the peer's that arrived */
  private received = 0;
  private ackSent = 0;
  /** the keepalive is due: acknowledge whatever arrived */
  private ackDue = false;
  /** frames of this turn; a stream's data waits in `turnData` so that RMS3 can broadcast it */
  private turn: Frame[] = [];
  private turnData = new Map<number, Uint8Array[]>();
  private flushScheduled = false;
  /** ms a record waits for more frames (the RMS settings' batch window); 0: none */
  private batchMs = 0;
  private batchTimer: ReturnType<typeof setTimeout> | null = null;
  /** stream data queued since the last record */
  private turnBytes = 0;
  /** the highest stream id opened so far (ids only grow: a lower unknown one is a closed stream) */
  private lastOpened = 0;
  private lastIn = Date.now();
  private lastOut = Date.now();
  private readonly timer: ReturnType<typeof setInterval>;
  /** this end sends its streams' lines as `line` and `fields` frames (both ends keep their templates) */
  private readonly compact: boolean;

  constructor(
    readonly variant: Variant,
    readonly role: "server" | "client",
    private readonly owner: SessionOwner,
    /** this end's window per stream */
    readonly window: number,
    /** the peer's window per stream */
    private readonly peerWindow: number,
    timing: TunnelTiming,
    /**
     * the tunnel version the peer reads (a server: its client's hello's; a client: its own). Fixed for
     * the tunnel's life: frames kept for a resume are sent again as they were made.
     */
    peerVersion: number,
  ) {
    this.compact = variant.compact && peerVersion >= COMPACT_LINES_VERSION;
    this.timer = setInterval(
      () => this.tick(timing),
      Math.max(10, Math.min(timing.keepaliveMs, timing.deadMs) / 2),
    );
  }

  /** reliable frames of the peer's that arrived (told to the peer when a link resumes) */
  get receivedCount(): number {
    return this.received;
  }

  get streamCount(): number {
    return this.streams.size;
  }

  get connected(): boolean {
    return this.link !== null;
  }

  /**
   * A new link, whose handshake record `writer` made: the peer has `peerReceived` of our frames;
   * the others go again. `batchMs`: how long this end's records wait for more frames on this link.
   */
  attach(link: ByteSocket, writer: RecordWriter, peerReceived: number, batchMs = 0): void {
    this.replay.ack(peerReceived);
    this.link = link;
    this.writer = writer;
    this.batchMs = batchMs;
    this.lastIn = Date.now();
    this.send(this.replay.unacked());
  }

  detach(): void {
    this.link = null;
    this.writer = null;
  }

  /** client: a miner connected; returns its stream id */
  open(sink: StreamSink, address: string): number {
    const id = ++this.lastOpened;
    this.streams.set(id, new Stream(id, sink, this.peerWindow, this.window));
    this.queue({ type: FrameType.open, stream: id, address });
    return id;
  }

  /** Bytes of a stream toward the peer; returns how many its credit allowed (the rest: wait for `writable`). */
  write(id: number, bytes: Uint8Array): number {
    const s = this.streams.get(id);
    // a closed stream takes its bytes and drops them, as a closed socket would
    if (s === undefined) return bytes.length;
    const n = s.take(bytes.length);
    if (n === 0) return 0;
    const list = this.turnData.get(id);
    const part = n === bytes.length ? bytes : bytes.subarray(0, n);
    // a caller may reuse its buffer once write returns
    if (list === undefined) this.turnData.set(id, [new Uint8Array(part)]);
    else list.push(new Uint8Array(part));
    this.turnBytes += n;
    this.schedule();
    return n;
  }

  /** The local end took `n` more bytes of stream `id` (after holding them back). */
  taken(id: number, n: number): void {
    const s = this.streams.get(id);
    if (s === undefined) return;
    const grant = s.taken(n);
    if (grant > 0) this.queue({ type: FrameType.credit, stream: id, bytes: grant });
  }

  /** This end closes stream `id` (its sink is not told: the caller is the sink's side). */
  close(id: number): void {
    if (!this.streams.delete(id)) return;
    this.queue({ type: FrameType.close, stream: id });
  }

  /** Ends the tunnel: every stream's local end is closed. */
  end(): void {
    clearInterval(this.timer);
    if (this.batchTimer !== null) clearTimeout(this.batchTimer);
    const streams = [...this.streams.values()];
    this.streams.clear();
    this.link?.end();
    this.link = null;
    for (const s of streams) s.sink.closed();
  }

  /** Frames from the peer, after the connection's hello or welcome. Throws TunnelError on a broken one. */
  receive(frames: readonly Frame[]): void {
    this.lastIn = Date.now();
    for (const f of frames) {
      if (isReliable(f.type)) this.received++;
      this.dispatch(f);
    }
    if (this.received - this.ackSent >= ACK_EVERY) this.schedule();
  }

  private dispatch(f: Frame): void {
    switch (f.type) {
      case FrameType.open:
        this.opened(f.stream, f.address);
        return;
      case FrameType.data:
        this.deliver(f.stream, f.bytes);
        return;
      case FrameType.broadcast:
        if (this.role === "server") throw new TunnelError("broadcast from a client");
        if (!this.variant.broadcast) throw new TunnelError(`broadcast on ${this.variant.name}`);
        for (const id of f.streams) this.deliver(id, f.bytes);
        return;
      case FrameType.line: {
        const s = this.compactStream(f.stream);
        if (s === null) return;
        s.lines.in.line(f.slot, f.bytes);
        this.deliver(f.stream, f.bytes);
        return;
      }
      case FrameType.fields: {
        const s = this.compactStream(f.stream);
        if (s === null) return;
        this.deliver(f.stream, s.lines.in.fields(f.slot, f.body));
        return;
      }
      case FrameType.close: {
        const s = this.streamOf(f.stream);
        if (s === null) return;
        this.streams.delete(f.stream);
        s.sink.closed();
        return;
      }
      case FrameType.credit:
        this.streamOf(f.stream)?.granted(f.bytes);
        return;
      case FrameType.ack:
        this.replay.ack(f.received);
        return;
      case FrameType.keepalive:
        return;
      default:
        throw new TunnelError(`handshake frame ${f.type} inside a tunnel`);
    }
  }

  private opened(id: number, address: string): void {
    if (this.role === "client") throw new TunnelError("a server opened a stream");
    if (id !== this.lastOpened + 1) throw new TunnelError(`stream ${id} opened out of order`);
    this.lastOpened = id;
    const sink = this.owner.opened(id, address);
    if (sink === null) {
      this.queue({ type: FrameType.close, stream: id });
      return;
    }
    this.streams.set(id, new Stream(id, sink, this.peerWindow, this.window));
  }

  /** A stream of the peer's frame: null if it was closed; a never-opened id breaks the protocol. */
  private streamOf(id: number): Stream | null {
    if (id === 0 || id > this.lastOpened) throw new TunnelError(`unknown stream ${id}`);
    return this.streams.get(id) ?? null;
  }

  /** The stream of a peer's `line` or `fields` frame (null: closed), if its variant has them. */
  private compactStream(id: number): Stream | null {
    if (!this.variant.compact) throw new TunnelError(`compact lines on ${this.variant.name}`);
    return this.streamOf(id);
  }

  private deliver(id: number, bytes: Uint8Array): void {
    const s = this.streamOf(id);
    if (s === null) return;
    s.received(bytes.length);
    const took = s.sink.deliver(bytes);
    if (took > 0) this.taken(id, took);
  }

  private queue(f: Frame): void {
    // a stream's data of this turn goes before its later frames (its close above all)
    if ("stream" in f) this.dataFrame(f.stream);
    this.turn.push(f);
    this.schedule();
  }

  private dataFrame(id: number): void {
    const list = this.turnData.get(id);
    if (list === undefined) return;
    this.turnData.delete(id);
    this.streamFrames(id, Buffer.concat(list), this.turn);
  }

  /** A stream's bytes of this record as frames: data, or with compact lines each line it can. */
  private streamFrames(id: number, bytes: Uint8Array, out: Frame[]): void {
    const s = this.compact ? this.streams.get(id) : undefined;
    if (s === undefined) {
      out.push({ type: FrameType.data, stream: id, bytes });
      return;
    }
    for (const part of s.lines.out.encode(bytes)) {
      if (part instanceof Uint8Array) out.push({ type: FrameType.data, stream: id, bytes: part });
      else if (part.fields !== undefined)
        out.push({ type: FrameType.fields, stream: id, slot: part.slot, body: part.fields });
      else out.push({ type: FrameType.line, stream: id, slot: part.slot, bytes: part.line });
    }
  }

  /** The next record goes at the end of this turn or, with a batch window, when it ends or fills. */
  private schedule(): void {
    if (this.flushScheduled) return;
    if (this.batchMs > 0 && this.turnBytes < BATCH_FULL_BYTES) {
      this.batchTimer ??= setTimeout(() => this.flush(), this.batchMs);
      return;
    }
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.batchTimer !== null) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    this.turnBytes = 0;
    const frames = this.turn;
    this.turn = [];
    if (this.variant.broadcast && this.role === "server") frames.push(...this.broadcasts());
    else {
      for (const [id, list] of this.turnData) this.streamFrames(id, Buffer.concat(list), frames);
      this.turnData.clear();
    }
    const wire: Uint8Array[] = [];
    for (const f of frames) {
      const bytes = encodeFrame(f);
      if (isReliable(f.type)) this.replay.add(bytes);
      wire.push(bytes);
    }
    const ackNow = this.ackDue || this.received - this.ackSent >= ACK_EVERY;
    this.ackDue = false;
    if (this.link !== null && ackNow && this.received > this.ackSent) {
      wire.push(encodeFrame({ type: FrameType.ack, received: this.received }));
      this.ackSent = this.received;
    }
    this.send(wire);
  }

  /** This turn's data, the same bytes to several streams sent once. */
  private broadcasts(): Frame[] {
    const groups = new Map<string, { bytes: Uint8Array; streams: number[] }>();
    for (const [id, list] of this.turnData) {
      const bytes = list.length === 1 ? (list[0] as Uint8Array) : Buffer.concat(list);
      const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
      const g = groups.get(key);
      if (g === undefined) groups.set(key, { bytes, streams: [id] });
      else g.streams.push(id);
    }
    this.turnData.clear();
    const out: Frame[] = [];
    for (const g of groups.values()) {
      if (g.streams.length === 1) {
        this.streamFrames(g.streams[0] as number, g.bytes, out);
        continue;
      }
      if (this.compact) for (const id of g.streams) this.streams.get(id)?.lines.out.passed(g.bytes);
      // the count is 16 bits: a larger farm's job goes in several broadcasts
      for (let i = 0; i < g.streams.length; i += 0xffff)
        out.push({ type: FrameType.broadcast, streams: g.streams.slice(i, i + 0xffff), bytes: g.bytes });
    }
    return out;
  }

  /** Encoded frames onto the link, a record per RECORD_TARGET bytes (nothing while there is no link). */
  private send(frames: readonly Uint8Array[]): void {
    const link = this.link;
    const writer = this.writer;
    if (link === null || writer === null || frames.length === 0) return;
    let batch: Uint8Array[] = [];
    let size = 0;
    const put = () => {
      link.write(writer.record(Buffer.concat(batch)));
      batch = [];
      size = 0;
    };
    for (const f of frames) {
      if (size > 0 && size + f.length > RECORD_TARGET) put();
      batch.push(f);
      size += f.length;
    }
    put();
    this.lastOut = Date.now();
  }

  private tick(timing: TunnelTiming): void {
    if (this.link === null) return;
    const now = Date.now();
    if (now - this.lastIn > timing.deadMs) {
      this.owner.dead();
      return;
    }
    if (now - this.lastOut >= timing.keepaliveMs) {
      this.ackDue = true;
      this.queue({ type: FrameType.keepalive });
    }
  }
}
