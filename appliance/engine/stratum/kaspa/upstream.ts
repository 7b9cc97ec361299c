/**
 * KaspaUpstream: one session to a Kaspa pool (protocols.md §D). mining.subscribe [agent,
 * "EthereumStratum/1.0.0"], mining.extranonce.subscribe, then any number of mining.authorize; the
 * pool gives the prefix in the subscribe answer (Bitmain shape) or in mining.set_extranonce, and
 * sends mining.set_difficulty and mining.notify in either form. A share goes up as [user, pool job
 * id, the full 16-hex nonce]. It knows nothing of miners; its Lane decides what to do with work.
 */
import type { Socket, SocketHandler } from "bun";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import { LineWriter } from "../../transport/line-writer.ts";
import { EthError, EthErrorCode, readPoolError } from "../ethereum/errors.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../line-codec.ts";
import { parsePositional, requestLine, type StratumId } from "../message.ts";
import { parseDifficulty, parseNotify, parseSetExtranonce, parseSubscribeResult } from "./messages.ts";
import { KASPA_PROTOCOL, KaspaMethod } from "./methods.ts";

export type UpstreamState = "connecting" | "login" | "ready" | "closed";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork {
  poolJobId: string;
  /** 64 hex digits */
  prePow: string;
  /** milliseconds */
  timestamp: bigint;
  difficulty: number;
  /** the prefix every nonce of this job starts with (hex, possibly empty) */
  extranonce: string;
}

export interface ShareTicket {
  onResult(error: EthError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onSubscribed(u: KaspaUpstream): void;
  onWork(u: KaspaUpstream, work: UpstreamWork): void;
  /** `healthy`: the session had delivered work; `refused` is never set (a subscribe is no login) */
  onClosed(u: KaspaUpstream, reason: string, healthy: boolean, refused: boolean): void;
}

export interface UpstreamOptions {
  agent: string;
  connectTimeoutMs: number;
  jobTimeoutMs: number;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "authorize"; user: string; resolve: (ok: boolean) => void }
  | { kind: "subscribe" }
  | { kind: "ignore" };

const NO_JOB = "no job from pool in time";
export const MAX_PENDING_REQUESTS = 4096;
const expire = (u: KaspaUpstream, reason: string): void => u.close(reason);
let nextUpstreamId = 1;

const HANDLERS: SocketHandler<KaspaUpstream> = {
  handshake: (s) => s.data.begin(s),
  data: (s, chunk) => s.data.onSocketData(chunk),
  drain: (s) => s.data.onSocketDrain(),
  close: (s) => s.data.onSocketClose(null),
  error: (s, e) => s.data.onSocketClose(`socket error: ${e.message}`),
  connectError: (s, e) => s.data.onSocketClose(`connect failed: ${e.message}`),
};

export class KaspaUpstream {
  readonly id = nextUpstreamId++;
  state: UpstreamState = "connecting";
  extranonce = "";
  readonly authorized = new Set<string>();
  private nextDifficulty = 1;
  private socket: Socket<KaspaUpstream> | null = null;
  private readonly splitter = new LineSplitter(MAX_LINE_BYTES, this);
  private writer: LineWriter | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private jobs = 0;
  private retiring: string | null = null;

  constructor(
    readonly endpoint: Endpoint,
    readonly opts: UpstreamOptions,
    private readonly handler: UpstreamHandler,
  ) {}

  get label(): string {
    return endpointText(this.endpoint);
  }

  get isReady(): boolean {
    return this.state === "ready";
  }

  start(): void {
    this.arm(this.opts.connectTimeoutMs, "connect/subscribe timeout");
    Bun.connect<KaspaUpstream>({
      hostname: this.endpoint.host,
      port: this.endpoint.port,
      ...(this.endpoint.tls ? { tls: { rejectUnauthorized: false } } : {}),
      data: this,
      socket: HANDLERS,
    }).then(
      (socket) => {
        if (!this.endpoint.tls) this.begin(socket);
      },
      (e: Error) => this.close(`connect failed: ${e.message}`),
    );
  }

  onOverflow(): void {
    this.close("line too long from pool");
  }

  onSocketData(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  onSocketDrain(): void {
    this.writer?.drain();
  }

  onSocketClose(why: string | null): void {
    this.close(why ?? "closed by pool");
  }

  begin(socket: Socket<KaspaUpstream>): void {
    if (this.state === "closed") {
      socket.end();
      return;
    }
    if (this.socket !== null) return;
    this.socket = socket;
    this.writer = new LineWriter(socket);
    this.state = "login";
    this.request({ kind: "subscribe" }, KaspaMethod.SUBSCRIBE, [this.opts.agent, KASPA_PROTOCOL]);
  }

  /** Authorizes a user on this session (every share names one). */
  authorize(user: string, password: string): Promise<boolean> {
    if (this.authorized.has(user)) return Promise.resolve(true);
    if (this.state !== "ready") return Promise.resolve(false);
    return new Promise((resolve) => {
      this.request({ kind: "authorize", user, resolve }, KaspaMethod.AUTHORIZE, [user, password]);
    });
  }

  /** Sends a share: [user, pool job id, the full nonce as 16 hex digits]. */
  submit(user: string, work: UpstreamWork, nonce: string, ticket: ShareTicket): void {
    if (this.state !== "ready") {
      ticket.onResult(new EthError(EthErrorCode.STALE, "upstream session closed"), 0);
      return;
    }
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      ticket.onResult(new EthError(EthErrorCode.OTHER, "pool is not answering"), 0);
      this.close(`pool left ${MAX_PENDING_REQUESTS} requests unanswered`);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    // Built by hand: once per share, and only the names need JSON escaping.
    this.writer?.write(
      `{"id":${id},"method":"${KaspaMethod.SUBMIT}","params":[${JSON.stringify(user)},${JSON.stringify(work.poolJobId)},"${nonce}"]}\n`,
    );
  }

  /** Stop being the lane's session but stay until the shares already sent are answered. */
  retire(reason: string, graceMs: number): void {
    if (this.state === "closed") return;
    this.retiring = reason;
    if (this.pendingShares() === 0) {
      this.close(reason);
      return;
    }
    this.arm(graceMs, reason);
  }

  private pendingShares(): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.kind === "share") n++;
    return n;
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    if (this.timer) clearTimeout(this.timer);
    this.writer?.close();
    const closed = new EthError(EthErrorCode.STALE, "upstream session closed");
    for (const p of this.pending.values()) {
      if (p.kind === "share") p.ticket.onResult(closed, 0);
      else if (p.kind === "authorize") p.resolve(false);
    }
    this.pending.clear();
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB, false);
  }

  private arm(ms: number, reason: string): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(expire, ms, this, reason);
  }

  private request(p: Pending, method: string, params: unknown[]): void {
    const id = this.nextId++;
    this.pending.set(id, p);
    this.writer?.write(requestLine(id, method, params));
  }

  private answerUnsupported(id: StratumId): void {
    if (id !== null)
      this.writer?.write(`${JSON.stringify({ id, result: null, error: [20, "unsupported", null] })}\n`);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const m = parsePositional(line);
    if (m === null) {
      this.close("malformed line from pool");
      return;
    }
    if (m.kind === "response") {
      const p = typeof m.id === "number" ? this.pending.get(m.id) : undefined;
      if (p === undefined) return;
      this.pending.delete(m.id as number);
      this.onResponse(p, m.result, m.error);
      if (this.retiring !== null && this.pendingShares() === 0) this.close(this.retiring);
      return;
    }
    switch (m.method) {
      case KaspaMethod.NOTIFY: {
        const n = parseNotify(line, m.params);
        if (n instanceof EthError) {
          this.close(n.message);
          return;
        }
        this.onJob({
          poolJobId: n.jobId,
          prePow: n.prePow,
          timestamp: n.timestamp,
          difficulty: this.nextDifficulty,
          extranonce: this.extranonce,
        });
        return;
      }
      case KaspaMethod.SET_DIFFICULTY: {
        const d = parseDifficulty(m.params);
        if (d !== null) this.nextDifficulty = d;
        return;
      }
      case KaspaMethod.SET_EXTRANONCE: {
        // takes effect with the next notify: each job carries the prefix it was issued with
        const e = parseSetExtranonce(m.params);
        if (e !== null) this.extranonce = e;
        return;
      }
      default:
        this.answerUnsupported(m.id);
    }
  }

  private onJob(work: UpstreamWork): void {
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.handler.onWork(this, work);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const err =
          readPoolError(error) ?? (result === true ? null : new EthError(EthErrorCode.OTHER, "rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "subscribe": {
        const s = parseSubscribeResult(result);
        if (s === null || readPoolError(error) !== null) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce = s.extranonce;
        this.request({ kind: "ignore" }, KaspaMethod.EXTRANONCE_SUBSCRIBE, []);
        this.state = "ready";
        this.arm(this.opts.jobTimeoutMs, NO_JOB);
        this.handler.onSubscribed(this);
        return;
      }
      case "authorize": {
        const ok = result === true && readPoolError(error) === null;
        if (ok) this.authorized.add(p.user);
        p.resolve(ok);
        return;
      }
      case "ignore":
        return;
    }
  }
}
