/**
 * A line-level test pool for the pass-through coins, speaking the shapes their pools use:
 * - "ergo": `mining.subscribe` → `[[…], nonce1, nonce2 size]`, `mining.authorize [user, pass]`,
 *   `mining.set_difficulty`, `mining.notify [jobId, msg, height, clean]`, `mining.submit [user, jobId,
 *   nonce2]` (protocols.md §H, Autolykos2);
 * - "aleo": the same envelope with `mining.set_target [u64]` sent as a bare JSON number above 2^53
 *   and a numeric nonce in submit (the 2^53 hazard of protocols.md §D/§H);
 * - "dynex": CryptoNote-style `login {login: wallet, pass: worker}` → `{id, job, status}` and
 *   `submit {id, job_id, nonce, result}` → `{status: "OK"}`.
 * It keeps every line each connection sent exactly as received (bytes as text, terminators
 * included), so a test can compare the proxy's relay byte for byte, and judges shares by structure
 * only (known job, nonce seen once): these coins' hashes are not computed here, and the relay does
 * not look at them either.
 */
import type { Socket, TCPSocketListener } from "bun";

export type Dialect = "ergo" | "aleo" | "dynex";

/** What one connection sent, in order. */
export interface PoolConnection {
  /** raw lines, each with its terminator */
  readonly raw: string[];
  /** the user the connection logged in with (authorize params[0], login params.login) */
  user: string | null;
  /** Dynex: the stratum password (the worker name) */
  pass: string | null;
  socket: Socket<PoolConnection>;
  partial: string;
}

/** A difficulty as ALEO pools send it: an integer JSON number a double cannot hold. */
export const ALEO_TARGET = "18446744073709551557";

const JOB = "job-1";

export interface LinePoolOptions {
  /** the difficulty sent in mining.set_difficulty (Ergo shape); 4 unless told */
  difficulty?: number;
  /** a notify of the same job to every connection this often (benchmarks: a pool keeps talking) */
  jobIntervalMs?: number;
  /** false: keep no copy of what connections sent (benchmarks with many miners) */
  keepLines?: boolean;
}

export class LinePool {
  readonly connections: PoolConnection[] = [];
  accepted = 0;
  rejected = 0;
  private acceptedWork = 0;
  private readonly seen = new Set<string>();
  private readonly live = new Set<PoolConnection>();
  private listener: TCPSocketListener<PoolConnection> | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private readonly difficulty: number;
  private readonly keepLines: boolean;

  constructor(
    private readonly dialect: Dialect,
    private readonly opts: LinePoolOptions = {},
  ) {
    this.difficulty = opts.difficulty ?? 4;
    this.keepLines = opts.keepLines ?? true;
  }

  /** Σ difficulty of the accepted shares (Ergo shape; 1 a share in the others). */
  totalWork(): number {
    return this.acceptedWork;
  }

  get port(): number {
    return this.listener?.port ?? 0;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  start(port = 0): this {
    const pool = this;
    this.listener = Bun.listen<PoolConnection>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.data = { raw: [], user: null, pass: null, socket: s, partial: "" };
          pool.live.add(s.data);
          if (pool.keepLines) pool.connections.push(s.data);
        },
        data(s, chunk) {
          const c = s.data;
          const text = c.partial + new TextDecoder().decode(chunk);
          let start = 0;
          for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
            const line = text.slice(start, nl + 1);
            start = nl + 1;
            if (pool.keepLines) c.raw.push(line);
            pool.onLine(c, line);
          }
          c.partial = text.slice(start);
        },
        close(s) {
          pool.live.delete(s.data);
        },
      },
    });
    if (this.opts.jobIntervalMs !== undefined)
      this.ticker = setInterval(() => {
        for (const c of this.live) if (c.user !== null) this.send(c, this.notifyLine());
      }, this.opts.jobIntervalMs);
    return this;
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.listener?.stop(true);
    this.listener = null;
  }

  private notifyLine(): string {
    return `{"id":null,"method":"mining.notify","params":["${JOB}","00ff",1000,true]}\n`;
  }

  /** Every connection's lines joined, as the pool received them. */
  received(): string {
    return this.connections.map((c) => c.raw.join("")).join("");
  }

  private send(c: PoolConnection, line: string): void {
    c.socket.write(line);
  }

  private onLine(c: PoolConnection, line: string): void {
    let m: { id?: unknown; method?: unknown; params?: unknown };
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    const id = JSON.stringify(m.id ?? null);
    const params = m.params;
    switch (m.method) {
      case "mining.subscribe":
        this.send(
          c,
          `{"id":${id},"result":[[["mining.notify","ae6812eb4cd7735a302a8a9dd95cf71f"]],"6a3f",6],"error":null}\n`,
        );
        return;
      case "mining.authorize": {
        c.user = Array.isArray(params) ? String(params[0]) : null;
        this.send(c, `{"id":${id},"result":true,"error":null}\n`);
        this.send(
          c,
          this.dialect === "aleo"
            ? `{"id":null,"method":"mining.set_target","params":[${ALEO_TARGET}]}\n`
            : `{"id":null,"method":"mining.set_difficulty","params":[${this.difficulty}]}\n`,
        );
        this.send(c, this.notifyLine());
        return;
      }
      case "login": {
        const p = params as { login?: unknown; pass?: unknown };
        c.user = String(p.login);
        c.pass = typeof p.pass === "string" ? p.pass : null;
        this.send(
          c,
          `{"id":${id},"jsonrpc":"2.0","error":null,"result":{"id":"rpc1","job":{"blob":"00ff","job_id":"${JOB}","target":"ffff0000"},"status":"OK"}}\n`,
        );
        return;
      }
      case "mining.submit":
      case "submit":
        this.submit(c, id, m.method, params);
        return;
      default:
        if (m.id !== undefined && m.id !== null)
          this.send(c, `{"id":${id},"result":null,"error":[20,"Unsupported method",null]}\n`);
    }
  }

  private submit(c: PoolConnection, id: string, method: string, params: unknown): void {
    const positional = method === "mining.submit";
    const p = params as unknown[] & { job_id?: unknown; nonce?: unknown };
    const job = positional ? p[1] : p.job_id;
    const nonce = JSON.stringify(positional ? p[2] : p.nonce);
    let error: string | null = null;
    if (job !== JOB) error = "Stale job";
    else if (this.seen.has(nonce)) error = "Duplicate share";
    else if (positional && c.user === null) error = "Unauthorized worker";
    this.seen.add(nonce);
    if (error === null) {
      this.accepted++;
      this.acceptedWork += positional && this.dialect === "ergo" ? this.difficulty : 1;
    } else this.rejected++;
    if (positional)
      this.send(
        c,
        error === null
          ? `{"id":${id},"result":true,"error":null}\n`
          : `{"id":${id},"result":null,"error":[${error.startsWith("Stale") ? 21 : 22},"${error}",null]}\n`,
      );
    else
      this.send(
        c,
        error === null
          ? `{"id":${id},"jsonrpc":"2.0","error":null,"result":{"status":"OK"}}\n`
          : `{"id":${id},"jsonrpc":"2.0","error":{"code":-1,"message":"${error}"},"result":null}\n`,
      );
  }
}
