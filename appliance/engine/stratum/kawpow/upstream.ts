/**
 * KawUpstream: one session to a KawPow pool (protocols.md §G). mining.subscribe [agent, null, host,
 * port] (the answer's nonce prefix starts every nonce), mining.extranonce.subscribe (pools that do
 * not know it refuse it, which is harmless), then any number of mining.authorize. Work arrives as
 * mining.set_target and mining.notify; a notify's own target is the job's share target (RVN pools
 * put the worker's vardiff target there), the last set_target serves a notify without one.
 * It knows nothing of miners; its Lane decides what to do with work and closures.
 */
import type { Socket, SocketHandler } from "bun";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import { LineWriter } from "../../transport/line-writer.ts";
import { ErrorCode, readPoolError, StratumError } from "../bitcoin/errors.ts";
import { intern } from "../intern.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../line-codec.ts";
import { errorLine, parsePositional, requestLine, type StratumId } from "../message.ts";
import { parseNotify, parseSetExtranonce, parseSetTarget, parseSubscribeResult } from "./messages.ts";
import { KawpowMethod } from "./methods.ts";
import { difficultyOfTarget } from "./target.ts";

export type UpstreamState = "connecting" | "subscribe" | "ready" | "closed";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork {
  poolJobId: string;
  header: string;
  seed: string;
  /** the share target, 64 hex digits */
  target: string;
  /** in the units of target.ts */
  difficulty: number;
  /** the session's nonce prefix every nonce of this job starts with */
  extranonce: string;
  clean: boolean;
  height: unknown;
  bits: unknown;
}

export interface ShareTicket {
  onResult(error: StratumError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onSubscribed(u: KawUpstream): void;
  onWork(u: KawUpstream, work: UpstreamWork): void;
  /**
   * `healthy`: the session had delivered work. `refused` is always false: a KawPow session has no
   * login of its own (a refused authorize is answered to its miner, the session stays).
   */
  onClosed(u: KawUpstream, reason: string, healthy: boolean, refused: boolean): void;
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
/** what a pool's session is asked for when it sends no target at all: any hash is a share */
const NO_TARGET = "f".repeat(64);
const expire = (u: KawUpstream, reason: string): void => u.close(reason);
let nextUpstreamId = 1;

const HANDLERS: SocketHandler<KawUpstream> = {
  handshake: (s) => s.data.begin(s),
  data: (s, chunk) => s.data.onSocketData(chunk),
  drain: (s) => s.data.onSocketDrain(),
  close: (s) => s.data.onSocketClose(null),
  error: (s, e) => s.data.onSocketClose(`socket error: ${e.message}`),
  connectError: (s, e) => s.data.onSocketClose(`connect failed: ${e.message}`),
};

export class KawUpstream {
  readonly id = nextUpstreamId++;
  state: UpstreamState = "connecting";
  extranonce = "";
  work: UpstreamWork | null = null;
  readonly authorized = new Set<string>();
  private lastTarget: string | null = null;
  private socket: Socket<KawUpstream> | null = null;
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
    Bun.connect<KawUpstream>({
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

  begin(socket: Socket<KawUpstream>): void {
    if (this.state === "closed") {
      socket.end();
      return;
    }
    if (this.socket !== null) return;
    this.socket = socket;
    this.writer = new LineWriter(socket);
    this.state = "subscribe";
    this.request({ kind: "subscribe" }, KawpowMethod.SUBSCRIBE, [
      this.opts.agent,
      null,
      this.endpoint.host,
      String(this.endpoint.port),
    ]);
  }

  /** Authorizes a user on this session (every shared worker and fee worker once). */
  authorize(user: string, password: string): Promise<boolean> {
    if (this.authorized.has(user)) return Promise.resolve(true);
    if (this.state !== "ready") return Promise.resolve(false);
    return new Promise((resolve) => {
      this.request({ kind: "authorize", user, resolve }, KawpowMethod.AUTHORIZE, [user, password]);
    });
  }

  /** Sends a share: [user, pool job id, 0x nonce, 0x header hash, 0x mix hash], the nonce whole. */
  submit(
    user: string,
    work: UpstreamWork,
    nonce: string,
    header: string,
    mix: string,
    ticket: ShareTicket,
  ): void {
    if (this.state !== "ready") {
      ticket.onResult(new StratumError(ErrorCode.STALE, "upstream session closed"), 0);
      return;
    }
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      ticket.onResult(new StratumError(ErrorCode.OTHER, "pool is not answering"), 0);
      this.close(`pool left ${MAX_PENDING_REQUESTS} requests unanswered`);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    // Built by hand: once per share, and only the names need JSON escaping.
    this.writer?.write(
      `{"id":${id},"method":"mining.submit","params":[${JSON.stringify(user)},${JSON.stringify(work.poolJobId)},"0x${nonce}","0x${header}","0x${mix}"]}\n`,
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
    const closed = new StratumError(ErrorCode.STALE, "upstream session closed");
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
    if (id !== null) this.writer?.write(errorLine(id, [20, "unsupported", null]));
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
      case KawpowMethod.NOTIFY: {
        const n = parseNotify(m.params);
        if (n instanceof StratumError) {
          this.close(n.message);
          return;
        }
        // a pool sends the same job to every session (Efficient: one per miner), and the seed and
        // target repeat across jobs: one string each instead of a copy per session and job
        const target = intern(n.target ?? this.lastTarget ?? NO_TARGET);
        this.onJob({
          poolJobId: intern(n.jobId),
          header: intern(n.header),
          seed: intern(n.seed),
          target,
          difficulty: difficultyOfTarget(target),
          extranonce: this.extranonce,
          clean: n.clean,
          height: n.height,
          bits: n.bits,
        });
        return;
      }
      case KawpowMethod.SET_TARGET: {
        const t = parseSetTarget(m.params);
        if (t !== null) this.lastTarget = t;
        return;
      }
      case KawpowMethod.SET_EXTRANONCE: {
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
    this.work = work;
    this.handler.onWork(this, work);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const err =
          readPoolError(error) ?? (result === true ? null : new StratumError(ErrorCode.OTHER, "rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "subscribe": {
        const prefix = parseSubscribeResult(result);
        if (prefix === null || readPoolError(error) !== null) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce = prefix;
        this.request({ kind: "ignore" }, KawpowMethod.EXTRANONCE_SUBSCRIBE, []);
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
