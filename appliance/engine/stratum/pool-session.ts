/**
 * PoolSession: the socket side every family's upstream session shares. It connects (TLS when the
 * endpoint says), bounds the pool's lines, keeps a table of pending requests by id, arms one deadline
 * (connect/login, then "no job in time"), and retires: a replaced session stays open until its
 * pending shares are answered, at most a grace period. A family's upstream says what to send first,
 * how to read a line, and what a closed session means for its pending requests.
 */
import type { Socket, SocketHandler } from "bun";
import { deadlines } from "../deadlines.ts";
import { FewMap } from "../few-map.ts";
import { type Endpoint, endpointText } from "../transport/endpoint.ts";
import { LineWriter, POOL_MAX_PENDING_BYTES } from "../transport/line-writer.ts";
import { type LineSplitter, MAX_LINE_BYTES, PoolLineSplitter } from "./line-codec.ts";
import { requestLine, type StratumId } from "./message.ts";

export type SessionState = "connecting" | "login" | "ready" | "closed";

/** A pending request: shares are what a retiring session waits for. */
export interface PendingRequest {
  readonly kind: string;
}

/**
 * Learns the pool's verdict on a worker it asked to authorize. A waiter, not a promise: a login on
 * the miner's own session waits here, and a promise with its closures was garbage every login left
 * among the miner's long-lived objects (docs/benchmarks.md).
 */
export interface AuthorizeWaiter {
  onPoolAuthorize(user: string, ok: boolean): void;
}

/**
 * Logs a lane's user (`password`, `user`) in on its new session `u`: one function for every lane's
 * `users.each`, not a closure per session.
 */
export const authorizeOn = (
  password: string,
  user: string,
  u: { authorize(user: string, password: string, waiter: AuthorizeWaiter | null): void },
): void => u.authorize(user, password, null);

/** A pending share: its ticket learns the pool's verdict. */
interface PendingShare<E> {
  readonly kind: "share";
  readonly ticket: { onResult(error: E, latencyMs: number): void };
}

/** A worker's pending login, and who waits for its verdict. */
interface PendingLogin {
  readonly kind: "authorize";
  readonly user: string;
  readonly waiter: AuthorizeWaiter | null;
}

/**
 * What a closed session answers a request still pending: a share `closed` (stale), a worker's
 * login refused. One function for every family's `pending.each`, not a for-of's generator on every
 * close: in Efficient mode a session closes with each miner.
 */
export function answerClosed<E>(
  p: PendingRequest | PendingShare<E> | PendingLogin,
  _id: number,
  closed: E,
): void {
  if ("ticket" in p) p.ticket.onResult(closed, 0);
  else if ("waiter" in p) p.waiter?.onPoolAuthorize(p.user, false);
}

/** Requests a pool may leave unanswered before the session is closed. */
export const MAX_PENDING_REQUESTS = 4096;

/**
 * A failed connect is told to the `connectError` handler; the promise Bun.connect also rejects is
 * answered by this one function, not by closures made on every connect (one per miner in Efficient mode).
 */
export const ignoreRejection = (): void => {};

const HANDLERS: SocketHandler<PoolSession<PendingRequest>> = {
  // Bun drops TLS writes made before the handshake completes.
  open: (s) => {
    if (!s.data.endpoint.tls) s.data.begin(s);
  },
  handshake: (s) => s.data.begin(s),
  data: (s, chunk) => s.data.splitter.push(chunk),
  drain: (s) => s.data.writer?.drain(),
  close: (s) => s.data.close("closed by pool"),
  error: (s, e) => s.data.close(`socket error: ${e.message}`),
  connectError: (s, e) => s.data.close(`connect failed: ${e.message}`),
};

export abstract class PoolSession<P extends PendingRequest> {
  state: SessionState = "connecting";
  readonly splitter: LineSplitter;
  writer: LineWriter | null = null;
  protected readonly pending = new FewMap<number, P>();
  protected nextId = 1;
  /** why the session retires, while it waits for its pending shares */
  protected retiring: string | null = null;
  private socket: Socket<PoolSession<P>> | null = null;
  deadlineIndex = -1;
  deadlineAt = 0;
  private deadlineReason = "";

  constructor(
    readonly endpoint: Endpoint,
    private readonly connectTimeoutMs: number,
  ) {
    this.splitter = new PoolLineSplitter(MAX_LINE_BYTES, this);
  }

  /** The first requests on a new connection (subscribe, login). */
  protected abstract hello(): void;
  /** One line from the pool. */
  abstract onLine(line: string): void;
  /** The session closed: answer what is pending (`pending` is cleared afterwards), tell the lane. */
  protected abstract ended(reason: string): void;

  get label(): string {
    return endpointText(this.endpoint);
  }

  get isReady(): boolean {
    return this.state === "ready";
  }

  start(): void {
    this.arm(this.connectTimeoutMs, "connect/login timeout");
    Bun.connect<PoolSession<P>>({
      hostname: this.endpoint.host,
      port: this.endpoint.port,
      ...(this.endpoint.tls ? { tls: { rejectUnauthorized: false } } : {}),
      data: this,
      socket: HANDLERS as SocketHandler<PoolSession<P>>,
    }).catch(ignoreRejection);
  }

  onOverflow(): void {
    this.close("line too long from pool");
  }

  begin(socket: Socket<PoolSession<P>>): void {
    if (this.state === "closed") {
      socket.end();
      return;
    }
    if (this.socket !== null) return;
    this.socket = socket;
    this.writer = new LineWriter(socket, POOL_MAX_PENDING_BYTES);
    this.state = "login";
    this.hello();
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

  /** A response arrived: a retiring session closes once its last share is answered. */
  protected answered(): void {
    if (this.retiring !== null && this.pendingShares() === 0) this.close(this.retiring);
  }

  private pendingShares(): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.kind === "share") n++;
    return n;
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    deadlines.clear(this);
    this.writer?.close();
    this.ended(reason);
    this.pending.clear();
  }

  protected arm(ms: number, reason: string): void {
    this.deadlineReason = reason;
    deadlines.set(this, ms);
  }

  onDeadline(): void {
    this.close(this.deadlineReason);
  }

  /** Sends a request and remembers it under a fresh id. */
  protected request(p: P, method: string, params: unknown[]): number {
    const id = this.nextId++;
    this.pending.set(id, p);
    this.writer?.write(this.requestText(id, method, params));
    return id;
  }

  /** A request line as this family's pools read it. */
  protected requestText(id: number, method: string, params: unknown[]): string {
    return requestLine(id, method, params);
  }

  /** A request from the pool the session does not serve. */
  protected answerUnsupported(id: StratumId): void {
    if (id !== null)
      this.writer?.write(`${JSON.stringify({ id, result: null, error: [20, "unsupported", null] })}\n`);
  }

  /** Room for one more request, else the pool is not answering and the session closes. */
  protected hasRoom(): boolean {
    if (this.pending.size < MAX_PENDING_REQUESTS) return true;
    this.close(`pool left ${MAX_PENDING_REQUESTS} requests unanswered`);
    return false;
  }
}
