/**
 * EngineControl for an engine on its own thread (engine-worker.ts). The HTTP server, SQLite, alerts
 * and everything else stay on the main thread, so a slow or hostile request never delays a share.
 *
 * Calls go over as messages with ids and come back as replies, an engine error as an Error with its
 * message, a thread that does not answer in time as EngineTimeout. The engine's callbacks (log
 * lines, statistics minutes, pool moves) arrive as events, in order with the replies. The run state
 * of each port is kept here, since it changes only through the operations sent from here: a page can
 * read it at once.
 */
import type {
  EngineControl,
  EngineEnvironment,
  EngineTiming,
  FeeSplitView,
  LiveReads,
  LogLevel,
  PoolMove,
  SeriesSink,
} from "../domain/engine.ts";
import type { Port, PortRunState, PortStat } from "../domain/port.ts";
import type { TunnelView } from "../domain/rms.ts";
import { ENGINE_WORKER, workerUrl } from "../workers.ts";
import type {
  AlertReadings,
  EngineApi,
  EngineCall,
  EngineEvent,
  EngineMethod,
  EngineReply,
  FromEngine,
  ToEngine,
} from "./thread-protocol.ts";
import { TurnBatch } from "./turn-batch.ts";

/** A call the engine's thread has not answered in time. */
export class EngineTimeout extends Error {}

/** Longest wait for an answer; the engine answers in microseconds unless its thread is stuck. */
const CALL_TIMEOUT_MS = 10_000;
/** Stopping every port and handing over the last minute can take longer on a large farm. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

/** Where the engine's callbacks go on the main thread (EngineDeps' log, series and poolMoved). */
export interface EngineEvents {
  log(level: LogLevel, portId: number | null, message: string): void;
  series: SeriesSink;
  poolMoved(portId: number, move: PoolMove): void;
  /** the thread ended on an error: every port is gone with it */
  failed(reason: string): void;
}

export interface EngineThreadOptions {
  environment: EngineEnvironment;
  events: EngineEvents;
  /** shorter timings, for tests (plain data, handed to the engine's thread) */
  timing?: Partial<EngineTiming>;
}

interface Pending {
  method: EngineMethod;
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** A running port's fee view as of its last closed minute (stats/targets-in-force.ts). */
export interface FeeInForce {
  fee: FeeSplitView;
  standby: boolean;
}

export class EngineThread implements EngineControl {
  readonly live: LiveReads;
  private readonly worker: Worker;
  private readonly calls: TurnBatch<EngineCall>;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private readonly running = new Set<number>();
  /** operations sent and not answered yet, per port: the port reads "queuing" meanwhile */
  private readonly busy = new Map<number, number>();
  private readonly fees = new Map<number, FeeInForce>();
  /** why the thread is gone; null while it runs */
  private ended: string | null = null;
  private readonly closed: Promise<void>;

  constructor(private readonly opts: EngineThreadOptions) {
    this.worker = new Worker(workerUrl(ENGINE_WORKER));
    this.closed = new Promise((resolve) => this.worker.addEventListener("close", () => resolve()));
    this.worker.onmessage = (e: MessageEvent<FromEngine>) => {
      for (const item of e.data) {
        if (item.type === "reply") this.settle(item);
        else this.receive(item);
      }
    };
    // An error the engine did not catch ends its thread: every port is gone with it.
    this.worker.onerror = (e) => {
      const reason = `the engine thread failed: ${e.message}`;
      opts.events.log("error", null, reason);
      this.end(reason);
      opts.events.failed(reason);
    };
    this.calls = new TurnBatch((calls) => this.post({ type: "calls", calls }));
    this.post({ type: "init", timing: opts.timing, environment: opts.environment });
    this.live = {
      workers: (portId) => this.call("workers", [portId]),
      workerList: (portId, query) => this.call("workerList", [portId, query]),
      portLog: (portId) => this.call("portLog", [portId]),
      portIps: (portId) => this.call("portIps", [portId]),
      groupWorkers: (portId) => this.call("groupWorkers", [portId]),
      walletList: (portId) => this.call("walletList", [portId]),
      worker: (workerId) => this.call("worker", [workerId]),
      portStats: (portId) => this.call("portStats", [portId]),
      currencyStats: (coin) => this.call("currencyStats", [coin]),
      deviceStats: () => this.call("deviceStats", []),
      onlineStat: (coin) => this.call("onlineStat", [coin]),
    };
  }

  apply(port: Port): Promise<void> {
    return this.operate(port.id, this.call("apply", [port]));
  }

  stop(portId: number): Promise<void> {
    return this.operate(portId, this.call("stop", [portId]));
  }

  remove(portId: number): Promise<void> {
    return this.operate(portId, this.call("remove", [portId]));
  }

  updateWallets(port: Port): Promise<void> {
    return this.operate(port.id, this.call("updateWallets", [port]));
  }

  runState(portId: number): PortRunState {
    if ((this.busy.get(portId) ?? 0) > 0) return "queuing";
    return this.running.has(portId) ? "active" : "closed";
  }

  stat(portId: number): Promise<PortStat> {
    return this.call("stat", [portId]);
  }

  ping(
    address: string,
    connType: number,
    timeoutMs: number,
    category: string | null = null,
  ): Promise<number> {
    // the ping's own timeout rejects first; ours only catches a thread that does not answer at all
    return this.call("ping", [address, connType, timeoutMs, category], timeoutMs + CALL_TIMEOUT_MS);
  }

  setFeeHoldSeconds(seconds: number): void {
    this.tell("setFeeHoldSeconds", [seconds]);
  }

  setDeviceRatio(portId: number, wallet: string, name: string, ratio: number | null): void {
    this.tell("setDeviceRatio", [portId, wallet, name, ratio]);
  }

  setWalletRatio(portId: number, wallet: string, ratio: number | null): void {
    this.tell("setWalletRatio", [portId, wallet, ratio]);
  }

  setEnvironment(change: Partial<EngineEnvironment>): Promise<void> {
    return this.call("setEnvironment", [change]);
  }

  tunnels(): Promise<TunnelView[]> {
    return this.call("tunnels", []);
  }

  /** What one evaluation of the alert rules reads, taken in one call. */
  alertReadings(portIds: number[]): Promise<AlertReadings> {
    return this.call("alertReadings", [portIds]);
  }

  /** A running port's fee view as of its last closed minute; null when it does not run. */
  feeInForce(portId: number): FeeInForce | null {
    return this.running.has(portId) ? (this.fees.get(portId) ?? null) : null;
  }

  /** Stops every port, takes the last minute's statistics and ends the thread. */
  async shutdown(): Promise<void> {
    if (this.ended === null) {
      try {
        await this.call("shutdown", [], SHUTDOWN_TIMEOUT_MS);
      } finally {
        this.end("the engine thread was stopped");
      }
    }
    await this.closed;
  }

  private call<M extends EngineMethod>(
    method: M,
    args: Parameters<EngineApi[M]>,
    timeoutMs = CALL_TIMEOUT_MS,
  ): Promise<Awaited<ReturnType<EngineApi[M]>>> {
    if (this.ended !== null) return Promise.reject(new Error(this.ended));
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new EngineTimeout(`the engine thread did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (value) => resolve(value as Awaited<ReturnType<EngineApi[M]>>),
        reject,
        timer,
      });
      this.calls.push({ id, method, args });
    });
  }

  /** A call nobody waits for; should it fail, the running log says so. */
  private tell<M extends EngineMethod>(method: M, args: Parameters<EngineApi[M]>): void {
    this.call(method, args).catch((err: unknown) => {
      this.opts.events.log("error", null, `engine ${method} failed: ${(err as Error).message}`);
    });
  }

  private async operate(portId: number, op: Promise<void>): Promise<void> {
    this.busy.set(portId, (this.busy.get(portId) ?? 0) + 1);
    try {
      await op;
    } finally {
      const n = (this.busy.get(portId) ?? 1) - 1;
      if (n <= 0) this.busy.delete(portId);
      else this.busy.set(portId, n);
    }
  }

  private settle(reply: EngineReply): void {
    const p = this.pending.get(reply.id);
    if (p === undefined) return; // it timed out
    this.pending.delete(reply.id);
    clearTimeout(p.timer);
    if (reply.ok) p.resolve(reply.value);
    else p.reject(new Error(reply.error));
  }

  private receive(event: EngineEvent): void {
    const { events } = this.opts;
    switch (event.type) {
      case "log":
        events.log(event.level, event.portId, event.message);
        break;
      case "series":
        events.series.add(event.sample);
        break;
      case "target":
        events.series.addTarget(event.sample);
        break;
      case "feeInForce":
        this.fees.set(event.portId, { fee: event.fee, standby: event.standby });
        break;
      case "poolMoved":
        events.poolMoved(event.portId, event.move);
        break;
      case "running":
        if (event.running) this.running.add(event.portId);
        else {
          this.running.delete(event.portId);
          this.fees.delete(event.portId);
        }
        break;
    }
  }

  private post(message: ToEngine): void {
    this.worker.postMessage(message);
  }

  /** The thread is gone or going: nothing it had running runs, and nothing sent will be answered. */
  private end(reason: string): void {
    if (this.ended !== null) return;
    this.ended = reason;
    this.running.clear();
    this.fees.clear();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(`${reason} before answering ${p.method}`));
    }
    this.pending.clear();
    this.worker.terminate();
  }
}
