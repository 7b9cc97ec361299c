/**
 * A real Alephium stratum pool for tests, on 127.0.0.1 and an ephemeral port, speaking what the reference
 * pool (alephium/mining-pool lib/stratum.js) speaks: mining.set_difficulty at connect, "result" to
 * mining.subscribe, true to mining.authorize followed by mining.set_extranonce with a 2-byte prefix unique per
 * connection, then mining.notify with block templates for several chains ({jobId, fromGroup, toGroup,
 * headerBlob, txsBlob, targetBlob, height}). Every share is recomputed with @noble/hashes' blake3 (pow.ts)
 * and rejected, with the reference pool's codes, when its job is unknown or was not sent to that connection,
 * its chain index is not the job's, the worker is not authorized there, the nonce is not 24 bytes, the
 * share is a duplicate, its hash lands on another chain, or the hash misses the target. Stricter than the
 * reference pool, it also refuses a nonce that does not start with the connection's extranonce: two miners
 * sharing one session through a proxy must never mine the same nonces. Accepted work is credited per worker
 * in difficulty units.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import { LineReader } from "../ethereum/json-lines.ts";
import { chainOf, GROUPS, hashValue, hexBytes, powHash, targetHex, targetOfDifficulty } from "./pow.ts";
import { errorReply, type Message, notification, parseLine, reply } from "./wire.ts";

export interface TestAlphPoolOptions {
  /** share difficulty of every connection; the default 2^-26 makes ≈1 hash in 256 a share */
  difficulty?: number;
  /** extranonce length, 1–4 bytes (the reference pool: 2) */
  extranonceBytes?: number;
  /** templates per notify, each on another chain (the reference pool sends one; the node's Jobs has 16) */
  templatesPerNotify?: number;
  /** a new notify this often; 0 = never */
  jobIntervalMs?: number;
  /**
   * benchmarks only: skip the blake3 hash (the chain index and target checks), so a load generator that
   * does not hash measures the proxy instead of this pool; every other check still applies
   */
  trustShares?: boolean;
}

export interface WorkerRecord {
  shares: number;
  /** Σ difficulty of accepted shares */
  work: number;
}

interface Template {
  jobId: string;
  fromGroup: number;
  toGroup: number;
  headerBlob: string;
  height: number;
}

interface Grant {
  template: Template;
  difficulty: number;
  extranonce: string;
}

interface Conn {
  id: number;
  write(line: string): void;
  extranonce: string;
  difficulty: number;
  authorized: Set<string>;
  grants: Map<string, Grant>;
}

/** Notifies whose templates still take shares (a pool keeps a few jobs of one block). */
const LIVE_NOTIFIES = 4;
const DEFAULT_DIFFICULTY = 2 ** -26;

export class TestAlphPool {
  readonly workers = new Map<string, WorkerRecord>();
  readonly rejects = new Map<string, number>();
  /** every extranonce handed out, in order */
  readonly extranonces: string[] = [];
  accepted = 0;
  connectionsOpened = 0;
  private readonly conns = new Map<Socket<Conn>, Conn>();
  private notifies: Template[][] = [];
  private readonly seen = new Set<string>();
  private jobSeq = 0;
  private height = 1_000_000;
  private nextConnId = 1;
  private nextExtranonce: number;
  private readonly difficulty: number;
  private readonly extranonceBytes: number;
  private listener: TCPSocketListener<Conn> | null = null;
  private jobTimer: ReturnType<typeof setInterval> | null = null;

  private constructor(private readonly opts: TestAlphPoolOptions) {
    this.difficulty = opts.difficulty ?? DEFAULT_DIFFICULTY;
    this.extranonceBytes = opts.extranonceBytes ?? 2;
    this.nextExtranonce = randomInt(256 ** this.extranonceBytes);
    this.newJob(false);
  }

  static start(opts: TestAlphPoolOptions = {}): TestAlphPool {
    const pool = new TestAlphPool(opts);
    pool.listen(0);
    return pool;
  }

  get port(): number {
    return this.listener?.port ?? 0;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get connections(): number {
    return this.conns.size;
  }

  /** Listens (again) on the given port; used to bring a stopped pool back. */
  listen(port: number): void {
    const every = this.opts.jobIntervalMs ?? 1000;
    if (every > 0 && this.jobTimer === null) this.jobTimer = setInterval(() => this.newJob(true), every);
    const readers = new WeakMap<Socket<Conn>, LineReader>();
    this.listener = Bun.listen<Conn>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open: (s) => {
          const c: Conn = {
            id: this.nextConnId++,
            write: (line) => s.write(line),
            extranonce: "",
            difficulty: this.difficulty,
            authorized: new Set(),
            grants: new Map(),
          };
          s.data = c;
          this.conns.set(s, c);
          this.connectionsOpened++;
          readers.set(
            s,
            new LineReader(
              (line) => this.onLine(s, c, line),
              () => s.end(),
            ),
          );
          c.write(notification("mining.set_difficulty", [c.difficulty]));
        },
        data: (s, chunk) => readers.get(s)?.push(chunk),
        close: (s) => {
          this.conns.delete(s);
        },
        error: (s) => {
          this.conns.delete(s);
        },
      },
    });
  }

  /** Closes the listener and every connection (a pool outage). */
  stop(): void {
    if (this.jobTimer) clearInterval(this.jobTimer);
    this.jobTimer = null;
    this.listener?.stop(true);
    this.listener = null;
    for (const s of this.conns.keys()) s.end();
    this.conns.clear();
  }

  totalWork(): number {
    let w = 0;
    for (const r of this.workers.values()) w += r.work;
    return w;
  }

  /** A new notify: templates on distinct chains; the last few notifies stay live. */
  newJob(broadcast: boolean): void {
    const n = Math.min(this.opts.templatesPerNotify ?? 4, GROUPS * GROUPS);
    const chains = [...Array(GROUPS * GROUPS).keys()].sort(() => Math.random() - 0.5).slice(0, n);
    this.height++;
    const templates = chains.map((chain) => ({
      jobId: (++this.jobSeq).toString(16),
      fromGroup: Math.floor(chain / GROUPS),
      toGroup: chain % GROUPS,
      headerBlob: randomBytes(96).toString("hex"),
      height: this.height,
    }));
    this.notifies.push(templates);
    if (this.notifies.length > LIVE_NOTIFIES) this.notifies.shift();
    if (broadcast) for (const c of this.conns.values()) this.sendNotify(c);
  }

  private template(jobId: string): Template | undefined {
    for (const ts of this.notifies) for (const t of ts) if (t.jobId === jobId) return t;
    return undefined;
  }

  private sendNotify(c: Conn): void {
    if (c.authorized.size === 0) return;
    const templates = this.notifies[this.notifies.length - 1] as Template[];
    const target = targetHex(targetOfDifficulty(c.difficulty));
    for (const t of templates)
      c.grants.set(t.jobId, { template: t, difficulty: c.difficulty, extranonce: c.extranonce });
    c.write(
      notification(
        "mining.notify",
        templates.map((t) => ({ ...t, txsBlob: "", targetBlob: target })),
      ),
    );
  }

  private onLine(s: Socket<Conn>, c: Conn, line: string): void {
    const m = parseLine(line);
    if (m === null) {
      s.end();
      return;
    }
    if (m.method === null) return;
    switch (m.method) {
      case "mining.subscribe":
        c.write(reply(m.id, "result"));
        return;
      case "mining.authorize": {
        const user = Array.isArray(m.params) ? m.params[0] : undefined;
        if (typeof user !== "string" || user === "" || user.startsWith("banned")) {
          c.write(errorReply(m.id, 22, "invalid worker"));
          return;
        }
        c.authorized.add(user);
        c.write(reply(m.id, true));
        c.extranonce = (this.nextExtranonce++ % 256 ** this.extranonceBytes)
          .toString(16)
          .padStart(this.extranonceBytes * 2, "0");
        this.extranonces.push(c.extranonce);
        c.write(notification("mining.set_extranonce", [c.extranonce]));
        this.sendNotify(c);
        return;
      }
      case "mining.submit":
        this.submit(c, m);
        return;
      default:
        c.write(errorReply(m.id, 20, "unknown method"));
    }
  }

  private submit(c: Conn, m: Message): void {
    const refusal = this.judge(c, m.params);
    if (refusal === null) {
      c.write(reply(m.id, true));
      return;
    }
    const [code, reason] = refusal;
    this.rejects.set(reason, (this.rejects.get(reason) ?? 0) + 1);
    c.write(errorReply(m.id, code, reason));
  }

  /** Checks a share in the reference pool's order and credits it; the refusal's code and reason otherwise. */
  private judge(c: Conn, p: unknown): [number, string] | null {
    if (p === null || typeof p !== "object" || Array.isArray(p)) return [20, "malformed submit"];
    const { jobId, fromGroup, toGroup, nonce, worker } = p as Record<string, unknown>;
    if (typeof worker !== "string" || !c.authorized.has(worker)) return [22, "invalid worker"];
    const t = typeof jobId === "string" ? this.template(jobId) : undefined;
    const grant = t === undefined ? undefined : c.grants.get(t.jobId);
    if (t === undefined || grant === undefined) return [20, "job not found, maybe expired"];
    if (fromGroup !== t.fromGroup || toGroup !== t.toGroup) return [21, "invalid job chain index"];
    if (typeof nonce !== "string" || !/^[0-9a-f]{48}$/.test(nonce)) return [23, "invalid nonce"];
    if (!nonce.startsWith(grant.extranonce)) return [23, "nonce outside extranonce"];
    const key = `${t.jobId}:${nonce}`;
    if (this.seen.has(key)) return [24, "duplicate share"];
    if (this.opts.trustShares !== true) {
      const hash = powHash(hexBytes(nonce), hexBytes(t.headerBlob));
      const chain = chainOf(hash);
      if (chain.fromGroup !== t.fromGroup || chain.toGroup !== t.toGroup)
        return [26, "invalid block chain index"];
      if (hashValue(hash) > targetOfDifficulty(grant.difficulty)) return [25, "low difficulty share"];
    }
    this.seen.add(key);
    this.accepted++;
    const rec = this.workers.get(worker) ?? { shares: 0, work: 0 };
    rec.shares++;
    rec.work += grant.difficulty;
    this.workers.set(worker, rec);
    return null;
  }
}
