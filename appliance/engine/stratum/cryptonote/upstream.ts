/**
 * Upstream: one CryptoNote stratum session to a pool, as xmrig speaks it. It connects (TCP or TLS),
 * logs in (the answer carries the rpc id and the first job), takes job notifications, relays
 * shares through a pending-request table and sends keepalived when the pool asks for it. It knows
 * nothing of miners; its owner (a Lane) decides what to do with jobs and closures.
 */
import type { Socket, SocketHandler } from "bun";
import { deadlines } from "../../deadlines.ts";
import { FewMap } from "../../few-map.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import { LineWriter, POOL_MAX_PENDING_BYTES } from "../../transport/line-writer.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../line-codec.ts";
import { parseMessage } from "../message.ts";
import { answerClosed } from "../pool-session.ts";
import { CnError, Errors, readPoolError } from "./errors.ts";
import { type PoolJob, parseLoginResult, parsePoolJob } from "./messages.ts";
import { Method } from "./methods.ts";

export type UpstreamState = "connecting" | "login" | "ready" | "closed";

/** The object a share travels with; its owner learns the pool's verdict through onResult. */
export interface ShareTicket {
  onResult(error: CnError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onJob(u: Upstream, job: PoolJob): void;
  /** `healthy` is true when the session had delivered at least one job. */
  onClosed(u: Upstream, reason: string, healthy: boolean): void;
}

export interface UpstreamLogin {
  user: string;
  pass: string;
  rigid: string | null;
  algos: readonly string[] | null;
}

export interface UpstreamOptions {
  agent: string;
  connectTimeoutMs: number;
  jobTimeoutMs: number;
  keepaliveMs: number;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "login" }
  | { kind: "ignore" };

const NO_JOB = "no job from pool in time";
/** how a session refused at login ends (its reason starts with this) */
export const LOGIN_REFUSED = "login refused";
/** Unanswered requests one session may have; a shared session carries up to 256 miners. */
const MAX_PENDING_REQUESTS = 4096;

const HANDLERS: SocketHandler<Upstream> = {
  // Bun drops TLS writes made before the handshake completes.
  handshake: (s) => s.data.begin(s),
  data: (s, chunk) => s.data.onSocketData(chunk),
  drain: (s) => s.data.onSocketDrain(),
  close: (s) => s.data.close("closed by pool"),
  error: (s, e) => s.data.close(`socket error: ${e.message}`),
  connectError: (s, e) => s.data.close(`connect failed: ${e.message}`),
};

export class Upstream {
  state: UpstreamState = "connecting";
  rpcId = "";
  job: PoolJob | null = null;
  private socket: Socket<Upstream> | null = null;
  private writer: LineWriter | null = null;
  private readonly splitter = new LineSplitter(MAX_LINE_BYTES, this);
  private readonly pending = new FewMap<number, Pending>();
  private nextId = 1;
  // Its timeout (connect, no job in time, a retiring session's grace) and, when the pool asks for
  // them, its keepalives, in the thread's one sweep (deadlines.ts) rather than two timers per
  // session: its deadline is the earlier of the two. Times are performance.now().
  deadlineIndex = -1;
  deadlineAt = 0;
  private timeoutAt = 0;
  private timeoutReason = "";
  private keepaliveAt = Number.POSITIVE_INFINITY;
  private jobs = 0;
  private retiring: string | null = null;

  constructor(
    readonly endpoint: Endpoint,
    private readonly opts: UpstreamOptions,
    private readonly login: UpstreamLogin,
    private readonly handler: UpstreamHandler,
  ) {}

  get label(): string {
    return endpointText(this.endpoint);
  }

  get isReady(): boolean {
    return this.state === "ready";
  }

  start(): void {
    this.arm(this.opts.connectTimeoutMs, "connect/login timeout");
    Bun.connect<Upstream>({
      hostname: this.endpoint.host,
      port: this.endpoint.port,
      // Pools commonly use self-signed certificates; the session is still encrypted.
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

  begin(socket: Socket<Upstream>): void {
    if (this.state === "closed") {
      socket.end();
      return;
    }
    if (this.socket !== null) return;
    this.socket = socket;
    this.writer = new LineWriter(socket, POOL_MAX_PENDING_BYTES);
    this.state = "login";
    const params: Record<string, unknown> = {
      login: this.login.user,
      pass: this.login.pass,
      agent: this.opts.agent,
    };
    if (this.login.rigid !== null) params.rigid = this.login.rigid;
    if (this.login.algos !== null) params.algo = this.login.algos;
    this.request({ kind: "login" }, Method.LOGIN, params);
  }

  onSocketData(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  onSocketDrain(): void {
    this.writer?.drain();
  }

  onOverflow(): void {
    this.close("line too long from pool");
  }

  submit(jobId: string, nonce: string, result: string, algo: string | null, ticket: ShareTicket): void {
    if (this.state !== "ready") {
      ticket.onResult(Errors.sessionClosed(), 0);
      return;
    }
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      ticket.onResult(Errors.poolSilent(), 0);
      this.close(`pool left ${MAX_PENDING_REQUESTS} requests unanswered`);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    // Built by hand: once per share, and only the ids and algo can need escaping.
    const tail = algo === null ? "" : `,"algo":${JSON.stringify(algo)}`;
    this.writer?.write(
      `{"id":${id},"jsonrpc":"2.0","method":"submit","params":{"id":${JSON.stringify(this.rpcId)},"job_id":${JSON.stringify(jobId)},"nonce":"${nonce}","result":"${result}"${tail}}}\n`,
    );
  }

  /** Stop taking work but stay open until the shares already sent are answered (or `graceMs`). */
  retire(reason: string, graceMs: number): void {
    if (this.state === "closed") return;
    this.retiring = reason;
    if (this.pendingShares() === 0) this.close(reason);
    else this.arm(graceMs, reason);
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    deadlines.clear(this);
    this.writer?.close();
    if (this.socket === null) this.writer = null;
    if (this.pending.size > 0) this.pending.each(answerClosed, Errors.sessionClosed());
    this.pending.clear();
    // A pool that stopped sending jobs is as unhealthy as one that cannot be reached.
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB);
  }

  private pendingShares(): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.kind === "share") n++;
    return n;
  }

  private arm(ms: number, reason: string): void {
    const now = performance.now();
    this.timeoutAt = now + ms;
    this.timeoutReason = reason;
    this.schedule(now);
  }

  private schedule(now: number): void {
    deadlines.set(this, Math.min(this.timeoutAt, this.keepaliveAt) - now);
  }

  onDeadline(): void {
    const now = performance.now();
    if (now >= this.timeoutAt) {
      this.close(this.timeoutReason);
      return;
    }
    if (now >= this.keepaliveAt) {
      this.keepaliveAt = now + this.opts.keepaliveMs;
      this.sendKeepalive();
    }
    this.schedule(now);
  }

  private request(p: Pending, method: string, params: Record<string, unknown>): void {
    const id = this.nextId++;
    this.pending.set(id, p);
    this.writer?.write(`${JSON.stringify({ id, jsonrpc: "2.0", method, params })}\n`);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const m = parseMessage(line);
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
    if (m.method === Method.JOB) {
      const job = parsePoolJob(m.params);
      if (job instanceof CnError) this.close(`bad job from pool: ${job.message}`);
      else this.onJob(job);
      return;
    }
    if (m.id !== null)
      this.writer?.write(
        `${JSON.stringify({ id: m.id, jsonrpc: "2.0", error: Errors.unknownMethod(), result: null })}\n`,
      );
  }

  private onJob(job: PoolJob): void {
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.job = job;
    this.handler.onJob(this, job);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const status = (result as { status?: unknown } | null)?.status;
        const err = readPoolError(error) ?? (status === "OK" ? null : new CnError("rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "login": {
        const refused = readPoolError(error);
        const r = refused ?? parseLoginResult(result);
        if (r instanceof CnError) {
          this.close(`${LOGIN_REFUSED}: ${r.message}`);
          return;
        }
        this.rpcId = r.rpcId;
        this.state = "ready";
        // the job below re-arms the timeout, which schedules the first keepalive with it
        if (r.extensions.includes("keepalive")) this.keepaliveAt = performance.now() + this.opts.keepaliveMs;
        this.onJob(r.job);
        return;
      }
      case "ignore":
        return;
    }
  }

  private sendKeepalive(): void {
    if (this.state === "ready" && this.retiring === null)
      this.request({ kind: "ignore" }, Method.KEEPALIVED, { id: this.rpcId });
  }
}
