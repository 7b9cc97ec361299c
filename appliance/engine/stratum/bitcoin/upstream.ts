/**
 * Upstream: one stratum session to a pool. It connects (TCP or TLS), negotiates version rolling,
 * subscribes, authorizes any number of workers and relays shares through a pending-request table.
 * It knows nothing of miners; its owner (a Lane) decides what to do with jobs and closures.
 */
import type { Socket, SocketHandler } from "bun";
import { deadlines } from "../../deadlines.ts";
import { FewMap, FewSet } from "../../few-map.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import { LineWriter, POOL_MAX_PENDING_BYTES } from "../../transport/line-writer.ts";
import { PROXY_AGENT } from "../agent.ts";
import { intern, LineCache } from "../intern.ts";
import { MAX_LINE_BYTES, PoolLineSplitter } from "../line-codec.ts";
import { parsePositional, requestLine, resultLine, type StratumId } from "../message.ts";
import { type AuthorizeWaiter, answerClosed, ignoreRejection } from "../pool-session.ts";
import { ErrorCode, readPoolError, StratumError } from "./errors.ts";
import {
  type Notify,
  parseConfigureResult,
  parseDifficulty,
  parseNotify,
  parseReconnect,
  parseSetExtranonce,
  parseSubscribeResult,
  parseVersionMask,
} from "./messages.ts";
import { BIP320_MASK, Method } from "./methods.ts";

export type UpstreamState = "connecting" | "subscribing" | "ready" | "closed";

/** A job as the pool sent it, with the session parameters in force when it arrived. */
export interface UpstreamJob {
  notify: Notify;
  difficulty: number;
  extranonce1: string;
  extranonce2Size: number;
  versionMask: number;
}

/** The object a share travels with; its owner learns the pool's verdict through onResult. */
export interface ShareTicket {
  onResult(error: StratumError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onSubscribed(u: Upstream): void;
  onJob(u: Upstream, job: UpstreamJob): void;
  onVersionMask(u: Upstream): void;
  onReconnectRequest(u: Upstream, host: string | null, port: number | null, waitMs: number): void;
  /** `healthy` is true when the session had delivered at least one job. */
  onClosed(u: Upstream, reason: string, healthy: boolean): void;
}

/** Shared by the sessions of a port that present the same agent: never changed once made. */
export interface UpstreamOptions {
  readonly agent: string;
  readonly versionRolling: boolean;
  readonly connectTimeoutMs: number;
  readonly jobTimeoutMs: number;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "authorize"; user: string; waiter: AuthorizeWaiter | null }
  | { kind: "configure" }
  | { kind: "subscribe" }
  | { kind: "ignore" };

/** Answers that carry nothing of their own: one object each for every session. */
const CONFIGURING: Pending = { kind: "configure" };
const SUBSCRIBING: Pending = { kind: "subscribe" };
const IGNORED: Pending = { kind: "ignore" };

/**
 * A session's first requests (configure as id 1 when rolling versions, subscribe next), the same
 * for every session with the same options: Efficient mode opens one per miner, and the options
 * object is shared by the sessions presenting one agent.
 */
const hellos = new WeakMap<UpstreamOptions, string>();
function helloOf(opts: UpstreamOptions): string {
  let hello = hellos.get(opts);
  if (hello === undefined) {
    const configure = opts.versionRolling
      ? requestLine(1, Method.CONFIGURE, [
          ["version-rolling"],
          {
            "version-rolling.mask": BIP320_MASK.toString(16).padStart(8, "0"),
            "version-rolling.min-bit-count": 2,
          },
        ])
      : "";
    hello = configure + requestLine(opts.versionRolling ? 2 : 1, Method.SUBSCRIBE, [opts.agent]);
    hellos.set(opts, hello);
  }
  return hello;
}

let nextUpstreamId = 1;
const NO_JOB = "no job from pool in time";
/** Unanswered requests one session may have; a shared session carries up to 256 miners. */
export const MAX_PENDING_REQUESTS = 4096;
/** Notify objects are never modified after parsing, so sessions can share them. */
const notifyCache = new LineCache<Notify>(256);

/** One handler table for every upstream socket: no closures per session. */
const UPSTREAM_HANDLERS: SocketHandler<Upstream> = {
  // Bun drops TLS writes made before the handshake completes.
  open: (s) => {
    if (!s.data.endpoint.tls) s.data.begin(s);
  },
  handshake: (s) => s.data.begin(s),
  data: (s, chunk) => s.data.onSocketData(chunk),
  drain: (s) => s.data.onSocketDrain(),
  close: (s) => s.data.onSocketClose(null),
  error: (s, e) => s.data.onSocketClose(`socket error: ${e.message}`),
  connectError: (s, e) => s.data.onSocketClose(`connect failed: ${e.message}`),
};

export class Upstream {
  readonly id = nextUpstreamId++;
  state: UpstreamState = "connecting";
  extranonce1 = "";
  extranonce2Size = 0;
  /** version bits this session may roll; 0 when the pool refused version rolling */
  versionMask = 0;
  job: UpstreamJob | null = null;
  readonly authorized = new FewSet<string>();
  private nextDifficulty = 1;
  private socket: Socket<Upstream> | null = null;
  private readonly splitter = new PoolLineSplitter(MAX_LINE_BYTES * 4, this);
  private writer: LineWriter | null = null;
  private readonly pending = new FewMap<number, Pending>();
  private nextId = 1;
  deadlineIndex = -1;
  deadlineAt = 0;
  private deadlineReason = "";
  private jobs = 0;
  private closeReason = "";
  private retiring: string | null = null;

  constructor(
    readonly endpoint: Endpoint,
    private readonly opts: UpstreamOptions,
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
    Bun.connect<Upstream>({
      hostname: this.endpoint.host,
      port: this.endpoint.port,
      // Pools commonly use self-signed certificates; the session is still encrypted.
      ...(this.endpoint.tls ? { tls: { rejectUnauthorized: false } } : {}),
      data: this,
      socket: UPSTREAM_HANDLERS,
    }).catch(ignoreRejection);
  }

  onOverflow(): void {
    this.close("line too long from pool");
  }

  /** @internal socket events, through the shared handler table */
  onSocketData(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  onSocketDrain(): void {
    this.writer?.drain();
  }

  onSocketClose(why: string | null): void {
    this.close(why ?? (this.closeReason || "closed by pool"));
  }

  begin(socket: Socket<Upstream>): void {
    if (this.state === "closed") {
      socket.end();
      return;
    }
    if (this.socket !== null) return;
    this.socket = socket;
    this.writer = new LineWriter(socket, POOL_MAX_PENDING_BYTES);
    this.state = "subscribing";
    // nothing is sent before the hello, so its requests take the first ids
    const subscribeId = this.opts.versionRolling ? 2 : 1;
    if (this.opts.versionRolling) this.pending.set(1, CONFIGURING);
    this.pending.set(subscribeId, SUBSCRIBING);
    this.nextId = subscribeId + 1;
    this.writer.write(helloOf(this.opts));
  }

  authorize(user: string, password: string, waiter: AuthorizeWaiter | null): void {
    if (this.authorized.has(user)) waiter?.onPoolAuthorize(user, true);
    else if (this.state !== "ready") waiter?.onPoolAuthorize(user, false);
    else this.request({ kind: "authorize", user, waiter }, Method.AUTHORIZE, [user, password]);
  }

  submit(
    worker: string,
    jobId: string,
    extranonce2: string,
    ntime: string,
    nonce: string,
    versionBits: string | null,
    ticket: ShareTicket,
  ): void {
    if (this.state !== "ready") {
      ticket.onResult(new StratumError(ErrorCode.STALE, "upstream session closed"), 0);
      return;
    }
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      // A pool that takes shares but does not answer them would otherwise grow this table forever.
      ticket.onResult(new StratumError(ErrorCode.OTHER, "pool is not answering"), 0);
      this.close(`pool left ${MAX_PENDING_REQUESTS} requests unanswered`);
      return;
    }
    // Built by hand: this runs once per share, and only the worker name needs JSON escaping.
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    const tail = versionBits === null ? "" : `,"${versionBits}"`;
    this.writer?.write(
      `{"id":${id},"method":"mining.submit","params":[${JSON.stringify(worker)},${JSON.stringify(jobId)},"${extranonce2}","${ntime}","${nonce}"${tail}]}\n`,
    );
  }

  /**
   * Stop being the lane's session but stay open until the shares already sent are answered (or
   * `graceMs` passes), so that a move to another pool loses no answer.
   */
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

  suggestDifficulty(d: number): void {
    if (this.state === "ready") this.request(IGNORED, Method.SUGGEST_DIFFICULTY, [d]);
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.closeReason = reason;
    deadlines.clear(this);
    this.writer?.close();
    if (this.socket === null) this.writer = null;
    if (this.pending.size > 0)
      this.pending.each(answerClosed, new StratumError(ErrorCode.STALE, "upstream session closed"));
    this.pending.clear();
    // A pool that stopped sending jobs is as unhealthy as one that cannot be reached.
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB);
  }

  private arm(ms: number, reason: string): void {
    this.deadlineReason = reason;
    deadlines.set(this, ms);
  }

  onDeadline(): void {
    this.close(this.deadlineReason);
  }

  private request(p: Pending, method: string, params: unknown[]): void {
    const id = this.nextId++;
    this.pending.set(id, p);
    this.writer?.write(requestLine(id, method, params));
  }

  private reply(id: StratumId, result: unknown): void {
    this.writer?.write(resultLine(id, result));
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const known = notifyCache.get(line);
    if (known !== undefined) {
      this.onNotify(known);
      return;
    }
    const m = parsePositional(line);
    if (m === null) {
      this.close("malformed line from pool");
      return;
    }
    if (m.kind === "response") {
      if (typeof m.id !== "number") return;
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      this.onResponse(p, m.result, m.error);
      if (this.retiring !== null && this.pendingShares() === 0) this.close(this.retiring);
      return;
    }
    switch (m.method) {
      case Method.NOTIFY: {
        const n = parseNotify(m.params);
        if (n instanceof StratumError) {
          this.close(n.message);
          return;
        }
        n.prevHash = intern(n.prevHash);
        n.coinb1 = intern(n.coinb1);
        n.coinb2 = intern(n.coinb2);
        n.merkleBranch = n.merkleBranch.map(intern);
        // Only id-less notifications are cached: a line with an id is not the same message twice.
        if (m.id === null) notifyCache.set(line, n);
        this.onNotify(n);
        return;
      }
      case Method.SET_DIFFICULTY: {
        const d = parseDifficulty(m.method, m.params);
        if (!(d instanceof StratumError)) this.nextDifficulty = d;
        return;
      }
      case Method.SET_EXTRANONCE: {
        const e = parseSetExtranonce(m.params);
        if (e instanceof StratumError) return;
        // Takes effect with the next notify: the job snapshot carries the values it was issued with.
        this.extranonce1 = e.extranonce1;
        if (e.extranonce2Size !== null) this.extranonce2Size = e.extranonce2Size;
        return;
      }
      case Method.SET_VERSION_MASK:
      case Method.SET_VERSION: {
        const v = parseVersionMask(m.params);
        if (v instanceof StratumError) return;
        this.versionMask = this.opts.versionRolling ? (v & BIP320_MASK) >>> 0 : 0;
        this.handler.onVersionMask(this);
        return;
      }
      case Method.RECONNECT: {
        const r = parseReconnect(m.params);
        if (r instanceof StratumError) return;
        this.handler.onReconnectRequest(this, r.host, r.port, r.waitSeconds * 1000);
        return;
      }
      case Method.PING:
        this.reply(m.id, "pong");
        return;
      case Method.GET_VERSION:
        this.reply(m.id, PROXY_AGENT);
        return;
      default:
        if (m.id !== null)
          this.writer?.write(
            `${JSON.stringify({ id: m.id, result: null, error: [20, "unsupported", null] })}\n`,
          );
    }
  }

  private onNotify(n: Notify): void {
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.job = {
      notify: n,
      difficulty: this.nextDifficulty,
      extranonce1: this.extranonce1,
      extranonce2Size: this.extranonce2Size,
      versionMask: this.versionMask,
    };
    this.handler.onJob(this, this.job);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const err =
          readPoolError(error) ?? (result === true ? null : new StratumError(ErrorCode.OTHER, "rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "configure": {
        const c = parseConfigureResult(result);
        this.versionMask = c.versionRolling ? (c.mask & BIP320_MASK) >>> 0 : 0;
        return;
      }
      case "subscribe": {
        const s = parseSubscribeResult(result);
        if (s instanceof StratumError) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce1 = s.extranonce1;
        this.extranonce2Size = s.extranonce2Size;
        this.state = "ready";
        this.arm(this.opts.jobTimeoutMs, NO_JOB);
        // Lets the pool change our extranonce later instead of dropping us; errors are ignored.
        this.request(IGNORED, Method.EXTRANONCE_SUBSCRIBE, []);
        this.handler.onSubscribed(this);
        return;
      }
      case "authorize": {
        const ok = result === true && readPoolError(error) === null;
        if (ok) this.authorized.add(p.user);
        p.waiter?.onPoolAuthorize(p.user, ok);
        return;
      }
      case "ignore":
        return;
    }
  }
}
