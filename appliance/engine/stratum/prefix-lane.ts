/**
 * PrefixLane and PrefixJob: the lane and job of the families whose pool session hands each miner a
 * nonce prefix (Equihash's NONCE_1, KawPow's extranonce). The lane keeps one pool session alive for
 * a target (the main pool or a fee wallet) with the miners mining on it now (reconnecting, rehoming
 * and waiting are PoolLane's), authorizes its users again on every new session, refuses to share a
 * session whose prefix leaves no room for a slot byte, turns pool work into port-unique jobs and
 * hands them to its miners. A family adds its upstream, its job's notify line and its prefix limit.
 */
import type { LogLevel } from "../../domain/engine.ts";
import { FewMap } from "../few-map.ts";
import { type JoinedLine, joinedLine, LinePart } from "../transport/joined-line.ts";
import type { LineWriter } from "../transport/line-writer.ts";
import { type LaneSession, PoolLane, type PoolLaneHost, type SlotMiner } from "./pool-lane.ts";
import { type AuthorizeWaiter, authorizeOn } from "./pool-session.ts";

/** A miner as a lane sees it. */
export interface PrefixLaneMiner<L, U, J> extends SlotMiner {
  onLaneJob(lane: L, job: J): void;
  /** a new session replaced the old one (its prefix may differ) */
  onLaneSession(lane: L, upstream: U): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: L): void;
  /** a fee lane's session ended: its work is gone until it reconnects */
  onLaneDown(lane: L): void;
}

export interface PrefixLaneHost<L> extends PoolLaneHost<L> {
  log(level: LogLevel, message: string): void;
}

/** The part of a lane a job needs. */
export interface JobOrigin {
  /** "main" or a fee wallet key */
  readonly target: string;
  /** the one worker every share is submitted as on a shared lane; null: the miner's own */
  readonly user: string | null;
  readonly shared: boolean;
}

/** The part of a pool session a prefix lane drives. */
export interface PrefixSession extends LaneSession {
  /** the prefix the pool gave this session ("" before subscribe, or when the dialect has none) */
  readonly extranonce: string;
  readonly label: string;
  readonly isReady: boolean;
  authorize(user: string, password: string, waiter: AuthorizeWaiter | null): void;
  close(reason: string): void;
}

/** How a family's pool prefix may be shared, for the lane's refusal. */
export interface PrefixLimit {
  /** what the family calls the prefix in its logs */
  readonly name: string;
  readonly maxSharedBytes: number;
  /** why a longer one cannot be shared */
  readonly why: string;
}

let nextJobSeq = 0;
/** Visits of a lane's miners: functions shared by every lane, not closures per job. */
const tellJob = <L, J>(m: { onLaneJob(lane: L, job: J): void }, lane: L, job: J): void =>
  m.onLaneJob(lane, job);
const tellSession = <L, U>(m: { onLaneSession(lane: L, u: U): void }, lane: L, u: U): void =>
  m.onLaneSession(lane, u);

/**
 * Pool work as the proxy hands it to miners, under a job id unique on the port (job ids of different
 * pool sessions collide), with the session that issued it, so that a late share goes to that
 * session. Each miner keeps the last few jobs it was sent with the prefix it mined them under and
 * what it already submitted for each (miner-jobs.ts).
 */
export abstract class PrefixJob<U, W extends { readonly difficulty: number }> implements NotifyJob<W> {
  readonly jobId = (++nextJobSeq).toString(16);
  // two fields, not a pair: every miner keeps a few jobs, and an array is two cells more each
  plainLine: string | null = null;
  cleanLine: string | null = null;

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: U,
    readonly work: W,
  ) {}

  get difficulty(): number {
    return this.work.difficulty;
  }

  /** the family's notify lines, by the work they carry (a getter: nothing kept per job) */
  protected abstract get notifies(): NotifyLines<W>;

  writeNotify(out: LineWriter, clean: boolean): void {
    this.notifies.write(out, this, clean);
  }
}

/** A job as its notify lines see it. */
export interface NotifyJob<W> {
  readonly jobId: string;
  readonly work: W;
  readonly origin: { readonly shared: boolean };
  /** a shared lane's lines, by clean flag, made when first sent (NotifyLines.write) */
  plainLine: string | null;
  cleanLine: string | null;
}

/**
 * A family's mining.notify lines (`{"id":null,"method":…,"params":[jobId, …]}`), joined from the
 * job id and the rest of the line. The rest is the same for every session given one pool job (its
 * fields and the session's target), and in Efficient mode every miner has a session, which the
 * pool's notify reaches one after another: the last rest made is given again while the work is the
 * same (`same`), instead of a params array, a wrapper object and their JSON per miner and job.
 */
export class NotifyLines<W> {
  private readonly head: LinePart;
  private work: W | null = null;
  private plain: LinePart | null = null;
  private clean: LinePart | null = null;

  constructor(
    method: string,
    /** whether two works give the same params after the job id */
    private readonly same: (a: W, b: W) => boolean,
    /** the params after the job id */
    private readonly params: (w: W, clean: boolean) => unknown[],
  ) {
    this.head = new LinePart(`{"id":null,"method":${JSON.stringify(method)},"params":["`);
  }

  /**
   * Sends `job`'s notify. A shared lane's job goes to many miners, so its line is made once per flag
   * and kept on the job. A miner's own session's goes to that miner alone, which keeps its last jobs,
   * and a kept line there would only hold memory: it is written joined (joined-line.ts).
   */
  write(out: LineWriter, job: NotifyJob<W>, clean: boolean): void {
    if (!job.origin.shared) {
      out.writeJoined(this.join(job, clean));
      return;
    }
    let line = clean ? job.cleanLine : job.plainLine;
    if (line === null) {
      line = this.join(job, clean).toString();
      if (clean) job.cleanLine = line;
      else job.plainLine = line;
    }
    out.write(line);
  }

  /** The line of `job` (its id is port-unique hex: nothing to escape). */
  private join(job: NotifyJob<W>, clean: boolean): JoinedLine {
    return joinedLine().part(this.head).text(job.jobId).part(this.rest(job.work, clean));
  }

  private rest(w: W, clean: boolean): LinePart {
    if (this.work !== w && (this.work === null || !this.same(this.work, w))) {
      this.work = w;
      this.plain = null;
      this.clean = null;
    }
    const known = clean ? this.clean : this.plain;
    if (known !== null) return known;
    // `",` closes the job id; the params' JSON without its opening bracket follows
    const rest = new LinePart(`",${JSON.stringify(this.params(w, clean)).slice(1)}}\n`);
    if (clean) this.clean = rest;
    else this.plain = rest;
    return rest;
  }
}

export abstract class PrefixLane<U extends PrefixSession, W, J> extends PoolLane<
  U,
  J,
  PrefixLaneMiner<PrefixLane<U, W, J>, U, J>
> {
  private readonly users = new FewMap<string, string>();
  /** the family's host, which also makes its sessions' options */
  protected abstract readonly host: PrefixLaneHost<PrefixLane<U, W, J>>;

  constructor(
    host: PrefixLaneHost<PrefixLane<U, W, J>>,
    target: string,
    shared: boolean,
    /** the one worker shares go up as on a shared lane */
    readonly user: string | null,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null,
    /** null: any prefix can be shared (the dialect has none) */
    private readonly limit: PrefixLimit | null,
    /** what `user` is authorized with on every session; null: the session logs in by itself */
    userPassword: string | null,
  ) {
    super(host, target, shared);
    if (user !== null && userPassword !== null) this.users.set(user, userPassword);
  }

  protected abstract newJob(u: U, work: W): J;

  protected minersDown(): void {
    for (const m of [...this.miners]) m.onLaneDown(this);
  }

  /**
   * Authorizes a user on this and every later session; `waiter` learns the pool's verdict on this
   * one (false at once while the lane has no ready session).
   */
  addUser(user: string, password: string, waiter: AuthorizeWaiter | null): void {
    this.users.set(user, password);
    const u = this.upstream;
    if (u?.isReady) u.authorize(user, password, waiter);
    else waiter?.onPoolAuthorize(user, false);
  }

  /**
   * A shared session whose prefix is too long is closed and logged. Checked at subscribe and at
   * every job: some pools give the prefix only in a mining.set_extranonce after subscribe (Kaspa),
   * or change it mid-session.
   */
  private refusesPrefix(u: U): boolean {
    const limit = this.limit;
    if (!this.shared || limit === null || u.extranonce.length <= limit.maxSharedBytes * 2) return false;
    this.host.log(
      "error",
      `${u.label}: ${limit.name} ${u.extranonce} is too long to share the session (${limit.why})`,
    );
    u.close(`${limit.name} too long to share`);
    return true;
  }

  onSubscribed(u: U): void {
    if (u !== this.upstream || this.refusesPrefix(u)) return;
    this.sessionSince = Date.now();
    this.users.each(authorizeOn, u);
    if (this.readyOnce) this.miners.each(tellSession, this, u);
    this.readyOnce = true;
    this.settle(true);
  }

  onWork(u: U, work: W): void {
    if (u !== this.upstream || this.refusesPrefix(u)) return;
    this.resetBackoff();
    const first = this.current === null;
    const job = this.newJob(u, work);
    this.current = job;
    this.miners.each(tellJob, this, job);
    if (first && this.waitingCount > 0) for (const m of [...this.waiting]) m.onLaneReady(this);
  }
}
