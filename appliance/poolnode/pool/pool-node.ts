/**
 * One running pool: the daemon's templates become jobs, miners' shares are verified by hashing, and a
 * share that meets the network target is assembled into a block and handed to submitblock at once.
 * Accepted shares and found blocks are reported to the accounting (share log, PPLNS) when one is given.
 */
import type { StratumError } from "../../engine/stratum/bitcoin/errors.ts";
import type { PoolAccounting } from "../accounting/ledger.ts";
import { type BlockTemplate, DaemonCalls } from "../daemon/calls.ts";
import { type DaemonEndpoint, DaemonRpc } from "../daemon/rpc-client.ts";
import { TemplatePoller } from "../daemon/template-poller.ts";
import { assembleBlock, blockHash } from "./block.ts";
import { BlockTracker } from "./block-tracker.ts";
import { POOL_COINS, type PoolCoinName } from "./coins.ts";
import { PoolJob } from "./job.ts";
import { JobBook } from "./job-book.ts";
import type { ValidShare } from "./share-verifier.ts";
import { type StratumHooks, StratumServer } from "./stratum-server.ts";
import type { VardiffOptions } from "./vardiff.ts";

/** A stratum listener of the pool beside its main port (a pool-node port, docs/pool-node.md). */
export interface PoolPortOptions {
  port: number;
  difficulty: number;
  maxConnections?: number;
  vardiff?: VardiffOptions | null;
}

export interface PoolNodeOptions {
  coin: PoolCoinName;
  daemon: DaemonEndpoint;
  /** the pool's own address: every coinbase pays it */
  poolAddress: string;
  host: string;
  /** 0: any free port (see `port`) */
  port: number;
  /** the share difficulty a connection starts at (and keeps, without vardiff) */
  difficulty: number;
  /** per-connection difficulty aiming at one share every targetSeconds, within min..max */
  vardiff?: VardiffOptions | null;
  pollMs?: number;
  refreshMs?: number;
  tag?: string;
  /** see StratumOptions */
  loginTimeoutMs?: number;
  maxConnections?: number;
  log?: (message: string) => void;
  /** the share log and ledger; absent, the pool keeps only its in-memory counts */
  accounting?: PoolAccounting;
  /** more listeners of the same pool: same jobs, same verification, same accounting */
  extraPorts?: readonly PoolPortOptions[];
}

export interface PoolStats {
  accepted: number;
  /** by stratum error code */
  rejected: Map<number, number>;
  /** accepted work (sum of share difficulty) per worker */
  work: Map<string, number>;
}

/** Remembered validateaddress answers; cleared when full rather than grown without bound. */
const MAX_CACHED_ADDRESSES = 10_000;

export class PoolNode {
  readonly stats: PoolStats = { accepted: 0, rejected: new Map(), work: new Map() };
  readonly blocks = new BlockTracker();
  private readonly jobs = new JobBook();
  private readonly poller: TemplatePoller;
  private readonly server: StratumServer;
  private readonly extras = new Map<number, StratumServer>();
  /** extra ports that could not listen when the pool started, with the reason */
  private readonly failed = new Map<number, string>();
  private readonly hooks: StratumHooks;
  // random start so that two pool runs do not hand out the same extranonce1 to the first miners
  private nextExtranonce1 = (Math.random() * 0xffffffff) >>> 0;
  private readonly addresses = new Map<string, boolean>();
  private readonly submitting = new Set<Promise<void>>();
  private readonly log: (message: string) => void;
  private tracking: Promise<void> | null = null;
  private trackAgain = false;

  private constructor(
    private readonly opts: PoolNodeOptions,
    readonly daemon: DaemonCalls,
    private payoutScript: string,
  ) {
    this.log = opts.log ?? (() => {});
    const coin = POOL_COINS[opts.coin];
    this.poller = new TemplatePoller(
      daemon,
      {
        onTemplate: (t, clean) => this.onTemplate(t, clean),
        onError: (e) => this.log(`getblocktemplate: ${e instanceof Error ? e.message : String(e)}`),
      },
      { rules: coin.rules, pollMs: opts.pollMs, refreshMs: opts.refreshMs },
    );
    this.hooks = {
      authorize: (address) => this.validAddress(address),
      freshJob: () => this.freshJob(),
      onShare: (worker, job, share) => this.onShare(worker, job, share),
      onReject: (_worker, error) => this.onReject(error),
      extranonce1: () => {
        this.nextExtranonce1 = (this.nextExtranonce1 + 1) >>> 0;
        return this.nextExtranonce1.toString(16).padStart(8, "0");
      },
    };
    this.server = this.listener(opts);
  }

  private listener(p: PoolPortOptions): StratumServer {
    return new StratumServer(
      {
        host: this.opts.host,
        port: p.port,
        difficulty: p.difficulty,
        algorithm: POOL_COINS[this.opts.coin].algorithm,
        loginTimeoutMs: this.opts.loginTimeoutMs,
        maxConnections: p.maxConnections,
        vardiff: p.vardiff,
      },
      this.jobs,
      this.hooks,
    );
  }

  /** Checks the pool address with the daemon, then starts polling templates and listening. */
  static async start(opts: PoolNodeOptions): Promise<PoolNode> {
    const daemon = new DaemonCalls(new DaemonRpc(opts.daemon));
    const v = await daemon.validateAddress(opts.poolAddress);
    if (!v.isvalid || v.scriptPubKey === undefined)
      throw new Error(`the pool address ${opts.poolAddress} is not valid for this daemon`);
    const node = new PoolNode(opts, daemon, v.scriptPubKey);
    for (const b of opts.accounting?.openBlocks() ?? []) node.blocks.add(b);
    node.server.start();
    // an extra port another program took meanwhile does not keep the pool from running on the others
    for (const p of opts.extraPorts ?? [])
      try {
        node.openPort(p);
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        node.failed.set(p.port, reason);
        node.log(`port ${p.port} could not listen: ${reason}`);
      }
    node.poller.start();
    return node;
  }

  get port(): number {
    return this.server.port;
  }

  /** miners connected to all the pool's ports */
  get connections(): number {
    let n = this.server.connections;
    for (const s of this.extras.values()) n += s.connections;
    return n;
  }

  /** Miners connected to one of the pool's ports; null when the pool does not listen there. */
  portConnections(port: number): number | null {
    if (port === this.server.port) return this.server.connections;
    return this.extras.get(port)?.connections ?? null;
  }

  /** Why an extra port is not listening, when it could not when the pool started. */
  portError(port: number): string | null {
    return this.failed.get(port) ?? null;
  }

  /** Starts listening on one more port; throws when the port cannot be bound. */
  openPort(p: PoolPortOptions): void {
    if (this.extras.has(p.port) || p.port === this.server.port) throw new Error(`port ${p.port} is open`);
    const server = this.listener(p);
    server.start();
    this.failed.delete(p.port);
    this.extras.set(p.port, server);
  }

  /** Stops listening on an extra port; its miners are disconnected. */
  closePort(port: number): void {
    this.extras.get(port)?.stop();
    this.extras.delete(port);
    this.failed.delete(port);
  }

  retunePort(p: PoolPortOptions): void {
    this.extras
      .get(p.port)
      ?.retune({ difficulty: p.difficulty, maxConnections: p.maxConnections, vardiff: p.vardiff });
  }

  /**
   * Every coinbase from now on pays this script (the pool's address changed); miners get a job with it
   * at once rather than at the next template. Shares of older jobs stay valid and pay the old address.
   */
  setPayoutScript(script: string): void {
    this.payoutScript = script;
    const job = this.freshJob();
    if (job !== null) this.broadcast(job, false);
  }

  private broadcast(job: PoolJob, clean: boolean): void {
    this.server.broadcast(job, clean);
    for (const s of this.extras.values()) s.broadcast(job, clean);
  }

  get currentJob(): PoolJob | null {
    return this.jobs.current;
  }

  async stop(): Promise<void> {
    this.poller.stop();
    this.server.stop();
    for (const port of [...this.extras.keys()]) this.closePort(port);
    await Promise.all(this.submitting);
    this.trackAgain = false;
    await this.tracking;
  }

  private onTemplate(template: BlockTemplate, clean: boolean): void {
    // a new tip is when confirmations change (or a block of ours falls off the best chain)
    if (clean) this.trackBlocks();
    const job = this.makeJob(template, clean);
    if (job !== null) this.broadcast(job, clean);
  }

  /** The current template as a new job (for one miner whose difficulty changed). */
  private freshJob(): PoolJob | null {
    const current = this.jobs.current;
    return current === null ? null : this.makeJob(current.template, false);
  }

  private makeJob(template: BlockTemplate, clean: boolean): PoolJob | null {
    const id = this.jobs.newId();
    let job: PoolJob;
    try {
      // the job id leads the tag (which may be cut to 32 bytes), so no two jobs share a coinbase
      job = new PoolJob(id, template, {
        payoutScript: this.payoutScript,
        tag: `${id}${this.opts.tag ?? "/pithead/"}`,
      });
    } catch (e) {
      this.log(`template at height ${template.height}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
    this.jobs.add(job, clean);
    return job;
  }

  /** Refreshes the found blocks' confirmations; a request while one runs makes it run once more. */
  private trackBlocks(): void {
    if (this.tracking !== null) {
      this.trackAgain = true;
      return;
    }
    const accounting = this.opts.accounting;
    // the current job is on the tip (or one block behind it, when a new template is arriving): that
    // only delays giving up an orphan by a block
    const tip = (this.jobs.current?.template.height ?? 1) - 1;
    this.tracking = this.blocks
      .refresh(this.daemon)
      .then((asked) => accounting?.blocksChecked(asked, tip))
      .catch((e: unknown) => this.log(`block tracking: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        this.tracking = null;
        if (this.trackAgain) {
          this.trackAgain = false;
          this.trackBlocks();
        }
      });
  }

  private async validAddress(address: string): Promise<boolean> {
    const known = this.addresses.get(address);
    if (known !== undefined) return known;
    const valid = (await this.daemon.validateAddress(address)).isvalid;
    if (this.addresses.size >= MAX_CACHED_ADDRESSES) this.addresses.clear();
    this.addresses.set(address, valid);
    return valid;
  }

  private onShare(worker: string, job: PoolJob, share: ValidShare): void {
    this.stats.accepted++;
    this.stats.work.set(worker, (this.stats.work.get(worker) ?? 0) + share.difficulty);
    const shareId = this.opts.accounting?.share(worker, share.difficulty, job.template.height) ?? 0;
    if (!share.block) return;
    // the parent is no longer the tip once this block is in: shares on it can only make orphans
    this.jobs.retireParent(job.template.previousblockhash);
    const p = this.submitBlock(worker, job, share, shareId).finally(() => this.submitting.delete(p));
    this.submitting.add(p);
  }

  private onReject(error: StratumError): void {
    this.stats.rejected.set(error.code, (this.stats.rejected.get(error.code) ?? 0) + 1);
  }

  private async submitBlock(worker: string, job: PoolJob, share: ValidShare, shareId: number): Promise<void> {
    const hash = blockHash(share.header);
    let verdict: string | null;
    try {
      verdict = await this.daemon.submitBlock(assembleBlock(job, share.header, share.coinbaseHex));
    } catch (e) {
      verdict = e instanceof Error ? e.message : String(e);
    }
    const found = {
      hash,
      height: job.template.height,
      worker,
      foundAt: Date.now(),
      verdict,
      confirmations: null,
    };
    this.blocks.add(found);
    try {
      this.opts.accounting?.blockFound(found, job.template.coinbasevalue, shareId);
    } catch (e) {
      this.log(`block ${hash} not recorded: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.log(`block ${hash} at height ${job.template.height} by ${worker}: ${verdict ?? "accepted"}`);
    await this.poller.refresh();
  }
}
