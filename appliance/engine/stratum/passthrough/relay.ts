/**
 * MinerRelay: one miner and its own pool session, relayed line by line. Every line goes on as the
 * miner sent it, byte for byte, except the login, whose user is rewritten (rewrite.ts rules, once).
 * Lines are still read as JSON where they are JSON, to count the miner as a device, pair each
 * submit's id with the pool's answer (verdict and latency into the device registry) and follow
 * `mining.set_difficulty` for the hashrate. Nothing is answered locally: the relay has no jobs.
 */
import type { EngineTiming, LogLevel } from "../../../domain/engine.ts";
import type { Port } from "../../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry } from "../../../stats/device-registry.ts";
import { MAIN } from "../../../stats/work-split.ts";
import { deadlines, type Expiring } from "../../deadlines.ts";
import { rewriteIdentity } from "../../rewrite.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import { MAX_LINE_BYTES, type RawLineSink, RawLineSplitter } from "../line-codec.ts";
import { ByteWriter } from "./byte-writer.ts";
import { identityAt, loginPlace, rewriteLogin } from "./login.ts";
import type { PoolLink, PoolLinkOwner } from "./pool-link.ts";
import { forcedSuccess, SUBMIT_METHODS, verdictOf } from "./verdict.ts";

/** Submits a pool may leave unanswered; beyond it the oldest is forgotten (uncounted). */
const MAX_PENDING_SUBMITS = 1024;

export interface RelayHost {
  readonly portId: number;
  readonly config: Port;
  readonly category: string;
  readonly factor: number;
  readonly registry: DeviceRegistry;
  readonly timing: EngineTiming;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, message: string): void;
  /** a session to the port's current main pool, started; null when no pool is configured */
  openPool(owner: PoolLinkOwner): PoolLink | null;
  /** the miner's pool session ended (drives the failover) */
  poolDown(link: PoolLink, reason: string, healthy: boolean): void;
  release(relay: MinerRelay): void;
}

interface PendingSubmit {
  method: string;
  sentAt: number;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const OPEN_BRACE = 123;

/** The line as a JSON object, or null (not JSON, or not an object): such lines are only relayed. */
function readObject(line: Uint8Array): { text: string; o: Record<string, unknown> } | null {
  let i = 0;
  while (i < line.length && (line[i] === 32 || line[i] === 9)) i++;
  if (line[i] !== OPEN_BRACE) return null;
  const text = decoder.decode(line);
  try {
    const o: unknown = JSON.parse(text);
    return o !== null && typeof o === "object" && !Array.isArray(o)
      ? { text, o: o as Record<string, unknown> }
      : null;
  } catch {
    return null;
  }
}

/** The line's terminator (`\n` or `\r\n`), kept on a rewritten line. */
const terminatorOf = (text: string): string => (text.endsWith("\r\n") ? "\r\n" : "\n");

export class MinerRelay implements MinerConnection, RawLineSink, PoolLinkOwner, Expiring {
  state: "open" | "closed" = "open";
  device: DeviceRecord | null = null;
  agent = "";
  private readonly splitter = new RawLineSplitter(MAX_LINE_BYTES, this);
  private readonly writer: ByteWriter;
  private readonly pool: PoolLink | null;
  private readonly pending = new Map<string, PendingSubmit>();
  private difficulty = 0;
  private windowStart = 0;
  private windowLines = 0;
  /** the login deadline, in the thread's sweep (deadlines.ts) rather than a timer per miner */
  deadlineIndex = -1;
  deadlineAt = 0;

  constructor(
    private readonly host: RelayHost,
    socket: ByteSocket,
    readonly ip: string,
  ) {
    this.writer = new ByteWriter(socket, () => this.close("miner is not reading"));
    // A miner that never names itself in a known shape would reach the pool unrewritten and
    // uncounted (a unified wallet would be bypassed): it is closed like a miner that never logs in.
    deadlines.set(this, host.timing.loginTimeoutMs);
    this.pool = host.openPool(this);
    if (this.pool === null) queueMicrotask(() => this.close("no pool configured"));
  }

  onDeadline(): void {
    this.close("login timeout");
  }

  get loggedIn(): boolean {
    return this.device !== null;
  }

  get poolOpen(): boolean {
    return this.pool?.isOpen ?? false;
  }

  onData(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  onDrain(): void {
    this.writer.drain();
  }

  onOverflow(): void {
    this.close("line too long");
  }

  onRawLine(line: Uint8Array): void {
    if (this.state === "closed") return;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowLines = 0;
    }
    if (++this.windowLines > this.host.timing.floodLinesPerSecond) {
      this.close("flood: too many lines per second");
      return;
    }
    const msg = readObject(line);
    const method = msg?.o.method;
    if (msg === null || typeof method !== "string") {
      this.pool?.send(line);
      return;
    }
    if (this.device === null) {
      const place = loginPlace(this.host.category, method, msg.o.params);
      if (place !== null) {
        const rewritten = this.login(msg.text, msg.o, place);
        if (rewritten !== null) this.pool?.send(rewritten);
        return;
      }
      if (method === "mining.subscribe" && Array.isArray(msg.o.params) && typeof msg.o.params[0] === "string")
        this.agent = intern(msg.o.params[0].slice(0, 128));
    } else if (SUBMIT_METHODS.has(method)) this.submitted(method, msg.o.id, now);
    this.pool?.send(line);
  }

  /** The login with the rewritten user, or null when the miner is refused (and closed). */
  private login(
    text: string,
    o: Record<string, unknown>,
    place: ReturnType<typeof loginPlace> & string,
  ): Uint8Array | null {
    const original = identityAt(place, o.params);
    original.wallet = intern(original.wallet);
    if (this.host.isWalletBanned(original.wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${original.wallet} is banned`);
      this.close("banned wallet");
      return null;
    }
    const ident = rewriteIdentity(original, this.host.config);
    const terminator = terminatorOf(text);
    const body = text.slice(0, text.length - terminator.length);
    const out = rewriteLogin(body, o, place, original, ident);
    const params = o.params as Record<string, unknown>;
    if (!Array.isArray(o.params) && typeof params.agent === "string")
      this.agent = intern(params.agent.slice(0, 128));
    const device = this.host.registry.connect(
      this.host.portId,
      original.wallet,
      original.name,
      this.ip,
      this.host.category,
      Date.now(),
    );
    device.upstreamUser = intern(ident.name ? `${ident.wallet}.${ident.name}` : ident.wallet);
    device.agent = this.agent;
    device.mining = MAIN;
    this.device = device;
    deadlines.clear(this);
    return encoder.encode(out + terminator);
  }

  private submitted(method: string, id: unknown, now: number): void {
    if (id === null || id === undefined) return;
    if (this.pending.size >= MAX_PENDING_SUBMITS) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    this.pending.set(JSON.stringify(id), { method, sentAt: performance.now() });
    if (this.device) this.device.lastSubmitAt = now;
  }

  onPoolLine(line: Uint8Array): void {
    if (this.state === "closed") return;
    const msg = readObject(line);
    if (msg !== null) {
      const o = msg.o;
      if (o.method === "mining.set_difficulty" && Array.isArray(o.params) && typeof o.params[0] === "number")
        this.difficulty = o.params[0];
      else if (("result" in o || "error" in o) && this.pending.size > 0) {
        const key = JSON.stringify(o.id ?? null);
        const p = this.pending.get(key);
        if (p !== undefined) {
          this.pending.delete(key);
          if (this.answered(p, key, o.result, o.error)) return;
        }
      }
    }
    this.writer.write(line);
  }

  /** Counts the pool's verdict; true when the miner was sent a forced success instead of it. */
  private answered(p: PendingSubmit, idJson: string, result: unknown, error: unknown): boolean {
    const d = this.device;
    if (d === null) return false;
    const outcome = verdictOf(result, error);
    const work = this.difficulty * this.host.factor;
    const now = Date.now();
    this.host.registry.result(d, outcome, MAIN, work, performance.now() - p.sentAt, true, now);
    d.difficulty = this.difficulty;
    if (outcome === "valid" || this.host.config.setting.fr !== 1) return false;
    const forced = forcedSuccess(this.host.category, p.method, idJson);
    if (forced === null) return false;
    this.writer.write(encoder.encode(forced));
    return true;
  }

  onPoolClosed(reason: string, healthy: boolean): void {
    if (this.state === "closed") return;
    if (this.pool !== null) this.host.poolDown(this.pool, reason, healthy);
    // The miner's state lives in that session (subscription, extranonce, login): it reconnects.
    this.close(`pool session ended: ${reason}`);
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    deadlines.clear(this);
    this.pending.clear();
    this.pool?.close("miner left");
    this.host.release(this);
    if (this.device !== null) this.host.registry.disconnect(this.device, Date.now());
    if (reason !== "miner closed the connection")
      this.host.log(this.device !== null ? "info" : "warn", `miner ${this.ip} closed: ${reason}`);
    this.writer.close();
  }
}
