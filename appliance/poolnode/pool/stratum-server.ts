/**
 * The pool node's stratum v1 listener for Bitcoin-family miners (protocols.md §A). It reuses the
 * engine's line splitter, envelope and per-method parsers; the share's fate is decided by hashing
 * (share-verifier.ts), never by trusting the miner.
 */
import type { Socket, TCPSocketListener } from "bun";
import { ErrorCode, StratumError } from "../../engine/stratum/bitcoin/errors.ts";
import {
  hex8,
  parseAuthorize,
  parseConfigure,
  parseSubmit,
  parseSubscribe,
} from "../../engine/stratum/bitcoin/messages.ts";
import { BIP320_MASK, Method } from "../../engine/stratum/bitcoin/methods.ts";
import type { PowAlgorithm } from "../../engine/stratum/bitcoin/target.ts";
import { LineSplitter, lineSink, MAX_LINE_BYTES } from "../../engine/stratum/line-codec.ts";
import {
  errorLine,
  type PositionalMessage,
  parsePositional,
  requestLine,
  resultLine,
} from "../../engine/stratum/message.ts";
import { EXTRANONCE2_BYTES } from "./coinbase.ts";
import type { PoolJob } from "./job.ts";
import type { JobBook } from "./job-book.ts";
import { type ValidShare, verifyShare } from "./share-verifier.ts";
import { Vardiff, type VardiffOptions } from "./vardiff.ts";

export interface StratumHooks {
  /** The current work again under a new job id and coinbase, for a miner given a new difficulty. */
  freshJob(): PoolJob | null;
  /** Whether the address part of `address[.worker]` may mine here (the daemon's validateaddress). */
  authorize(address: string): Promise<boolean>;
  onShare(worker: string, job: PoolJob, share: ValidShare): void;
  onReject(worker: string, error: StratumError): void;
  /** A connection's extranonce1, unique across every listener of the pool (they share the jobs). */
  extranonce1(): string;
}

/** What may change on a listener while it runs; connections made from then on get it. */
export type StratumTuning = Pick<StratumOptions, "difficulty" | "maxConnections" | "vardiff">;

export interface StratumOptions {
  host: string;
  port: number;
  difficulty: number;
  algorithm: PowAlgorithm;
  /** a connection with no authorized worker by then is closed (it holds a socket and an extranonce) */
  loginTimeoutMs?: number;
  /** connections beyond this are closed at once (spec §9: pool-node ports take 60,000) */
  maxConnections?: number;
  /** null or absent: every connection keeps `difficulty` */
  vardiff?: VardiffOptions | null;
}

const LOGIN_TIMEOUT_MS = 30_000;
/** spec §9: a pool-node port takes 60,000 connections unless set otherwise */
export const MAX_CONNECTIONS = 60_000;

interface Session {
  socket: Socket<Session>;
  splitter: LineSplitter;
  extranonce1: string;
  subscribed: boolean;
  /** worker names authorized on this connection */
  workers: Set<string>;
  /** the first authorize was granted: difficulty and job follow its answer */
  welcome: boolean;
  /** closes the connection unless a worker authorizes first */
  loginTimer: ReturnType<typeof setTimeout> | null;
  vardiff: Vardiff;
  /** the difficulty each recent job was sent with: a share is checked and credited at its job's */
  jobDifficulty: Map<string, number>;
  /** BIP310 version bits this miner may roll; 0 until it negotiates them */
  versionMask: number;
}

/**
 * Jobs per connection whose difficulty is remembered; a share for an older one (still valid in the
 * job book) is checked at the connection's current difficulty. Miners submit for their latest jobs.
 */
const REMEMBERED_JOBS = 16;

export class StratumServer {
  private listener: TCPSocketListener<Session> | null = null;
  private sweeper: ReturnType<typeof setInterval> | null = null;
  private readonly sessions = new Set<Session>();

  constructor(
    private opts: StratumOptions,
    private readonly jobs: JobBook,
    private readonly hooks: StratumHooks,
  ) {}

  get port(): number {
    return this.listener?.port ?? 0;
  }

  get connections(): number {
    return this.sessions.size;
  }

  /** Connected miners keep their difficulty (vardiff moves it); new connections start at the new one. */
  retune(tuning: StratumTuning): void {
    this.opts = { ...this.opts, ...tuning };
  }

  start(): void {
    this.listener = Bun.listen<Session>({
      hostname: this.opts.host,
      port: this.opts.port,
      socket: {
        open: (socket) => this.open(socket),
        // a connection refused over the cap has no session
        data: (socket, chunk) => (socket.data as Session | undefined)?.splitter.push(chunk),
        close: (socket) => this.drop(socket.data),
        error: (socket) => this.drop(socket.data),
      },
    });
    const v = this.opts.vardiff;
    if (v) this.sweeper = setInterval(() => this.sweep(), v.targetSeconds * 1000);
  }

  stop(): void {
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    this.listener?.stop(true);
    this.listener = null;
    for (const s of this.sessions) this.drop(s);
  }

  /**
   * A new difficulty applies from the next job, so fresh work follows it: a new job id (the old one
   * keeps its difficulty) and a new coinbase, so no share of the old job can be sent again under it.
   */
  private sendDifficulty(s: Session, difficulty: number): void {
    s.socket.write(requestLine(null, Method.SET_DIFFICULTY, [difficulty]));
    const job = this.hooks.freshJob();
    if (job !== null) this.notify(s, job, requestLine(null, Method.NOTIFY, job.notifyParams(false)));
  }

  /** Lowers the difficulty of miners whose shares stopped coming. */
  private sweep(): void {
    const now = Date.now();
    for (const s of this.sessions) {
      if (s.workers.size === 0) continue;
      const next = s.vardiff.check(now);
      if (next !== null) this.sendDifficulty(s, next);
    }
  }

  private drop(s: Session | undefined): void {
    if (s === undefined) return;
    if (s.loginTimer !== null) clearTimeout(s.loginTimer);
    this.sessions.delete(s);
  }

  /** Sends a job to every miner that has authorized. */
  broadcast(job: PoolJob, clean: boolean): void {
    const line = requestLine(null, Method.NOTIFY, job.notifyParams(clean));
    for (const s of this.sessions) if (s.workers.size > 0) this.notify(s, job, line);
  }

  private notify(s: Session, job: PoolJob, line: string): void {
    s.jobDifficulty.set(job.id, s.vardiff.current);
    if (s.jobDifficulty.size > REMEMBERED_JOBS)
      s.jobDifficulty.delete(s.jobDifficulty.keys().next().value as string);
    s.socket.write(line);
  }

  private open(socket: Socket<Session>): void {
    if (this.sessions.size >= (this.opts.maxConnections ?? MAX_CONNECTIONS)) {
      socket.end();
      return;
    }
    const session: Session = {
      socket,
      extranonce1: this.hooks.extranonce1(),
      subscribed: false,
      workers: new Set(),
      welcome: false,
      jobDifficulty: new Map(),
      versionMask: 0,
      vardiff: new Vardiff(this.opts.difficulty, this.opts.vardiff ?? null, Date.now()),
      loginTimer: setTimeout(() => socket.end(), this.opts.loginTimeoutMs ?? LOGIN_TIMEOUT_MS),
      splitter: new LineSplitter(
        MAX_LINE_BYTES,
        lineSink(
          (line) => this.onLine(session, line),
          () => socket.end(),
        ),
      ),
    };
    socket.data = session;
    this.sessions.add(session);
  }

  private onLine(s: Session, line: string): void {
    const m = parsePositional(line);
    if (m === null) {
      s.socket.end();
      return;
    }
    if (m.kind === "response") return;
    const answer = this.answer(s, m);
    if (answer instanceof Promise) void answer.then((a) => this.reply(s, m.id, a));
    else this.reply(s, m.id, answer);
  }

  private reply(s: Session, id: PositionalMessage["id"], a: unknown): void {
    s.socket.write(a instanceof StratumError ? errorLine(id, a.toJSON()) : resultLine(id, a));
    // after the answer, so that the miner knows it is authorized before its first job arrives
    if (s.welcome) {
      s.welcome = false;
      s.socket.write(requestLine(null, Method.SET_DIFFICULTY, [s.vardiff.current]));
      const job = this.jobs.current;
      if (job !== null) this.notify(s, job, requestLine(null, Method.NOTIFY, job.notifyParams(true)));
    }
  }

  private answer(s: Session, m: PositionalMessage & { kind: "request" }): unknown {
    switch (m.method) {
      case Method.SUBSCRIBE: {
        const sub = parseSubscribe(m.params);
        if (sub instanceof StratumError) return sub;
        s.subscribed = true;
        const sid = s.extranonce1;
        return [
          [
            [Method.SET_DIFFICULTY, sid],
            [Method.NOTIFY, sid],
          ],
          s.extranonce1,
          EXTRANONCE2_BYTES,
        ];
      }
      case Method.CONFIGURE:
        return this.configure(s, m.params);
      case Method.AUTHORIZE:
        return this.authorize(s, m.params);
      case Method.SUBMIT:
        return this.submit(s, m.params);
      case Method.PING:
        return "pong";
      default:
        return new StratumError(ErrorCode.OTHER, `unsupported method ${m.method}`);
    }
  }

  /** BIP310: version rolling within BIP320's bits; every other extension is declined. */
  private configure(s: Session, params: unknown[]): Record<string, unknown> | StratumError {
    const c = parseConfigure(params);
    if (c instanceof StratumError) return c;
    const result: Record<string, unknown> = {};
    for (const ext of c.extensions) result[ext] = false;
    if (c.versionRollingMask !== null) {
      const mask = (c.versionRollingMask & BIP320_MASK) >>> 0;
      const bits = mask.toString(2).replaceAll("0", "").length;
      // refused when fewer bits remain than the miner says it needs
      s.versionMask = mask !== 0 && bits >= c.minBitCount ? mask : 0;
      result["version-rolling"] = s.versionMask !== 0;
      if (s.versionMask !== 0) result["version-rolling.mask"] = hex8(s.versionMask);
    }
    return result;
  }

  private async authorize(s: Session, params: unknown[]): Promise<boolean | StratumError> {
    const a = parseAuthorize(params);
    if (a instanceof StratumError) return a;
    if (!s.subscribed) return new StratumError(ErrorCode.NOT_SUBSCRIBED, "not subscribed");
    const address = a.user.split(".")[0] as string;
    let ok: boolean;
    try {
      ok = await this.hooks.authorize(address);
    } catch {
      return new StratumError(ErrorCode.OTHER, "the coin daemon did not answer");
    }
    if (!ok) return new StratumError(ErrorCode.UNAUTHORIZED, "not a valid address for this coin");
    if (s.workers.size === 0) s.welcome = true;
    s.workers.add(a.user);
    if (s.loginTimer !== null) clearTimeout(s.loginTimer);
    s.loginTimer = null;
    return true;
  }

  private submit(s: Session, params: unknown[]): true | StratumError {
    const sub = parseSubmit(params);
    if (sub instanceof StratumError) return sub;
    if (!s.subscribed) return new StratumError(ErrorCode.NOT_SUBSCRIBED, "not subscribed");
    if (!s.workers.has(sub.worker))
      return this.reject(sub.worker, ErrorCode.UNAUTHORIZED, "unauthorized worker");
    const job = this.jobs.get(sub.jobId);
    if (job === undefined) return this.reject(sub.worker, ErrorCode.STALE, "stale job");
    const difficulty = s.jobDifficulty.get(job.id) ?? s.vardiff.current;
    const share = verifyShare(job, s.extranonce1, sub, difficulty, this.opts.algorithm, s.versionMask);
    if (share instanceof StratumError) {
      this.hooks.onReject(sub.worker, share);
      return share;
    }
    this.hooks.onShare(sub.worker, job, share);
    // after this answer: the new difficulty comes with the job it applies to
    const next = s.vardiff.onShare(Date.now());
    if (next !== null) queueMicrotask(() => this.sendDifficulty(s, next));
    return true;
  }

  private reject(worker: string, code: number, message: string): StratumError {
    const e = new StratumError(code, message);
    this.hooks.onReject(worker, e);
    return e;
  }
}
