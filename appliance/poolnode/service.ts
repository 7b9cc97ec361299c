/**
 * The pool node's life in the appliance: not activated → activated → running (docs/pool-node.md).
 * Activation starts the pool on the project's stratum port; a pool that cannot start (the daemon down
 * at boot) leaves the node activated, not running, with the reason shown. Changes are serialized so
 * that two clicks never start two pools on one port. While the pool runs, its ledger takes the shares
 * and blocks, and a payout cycle runs at start (reconciling what a previous run left pending) and
 * then every payout interval — or at once when a withdrawal is approved; stopping waits for a cycle
 * under way.
 */
import type { PoolLedgerStore } from "../store/poolnode-ledger.ts";
import type { PoolPort, PoolPortInput, PoolPortStore } from "../store/poolnode-ports.ts";
import type { PoolSubaccountStore } from "../store/poolnode-subaccounts.ts";
import type { SettingsStore } from "../store/settings.ts";
import { PoolLedger } from "./accounting/ledger.ts";
import { Payouts } from "./accounting/payouts.ts";
import { baseUnits } from "./amounts.ts";
import { type BlockchainInfo, DaemonCalls } from "./daemon/calls.ts";
import { DaemonRpc } from "./daemon/rpc-client.ts";
import type { BlockStatus } from "./pool/block-tracker.ts";
import { PoolNode, type PoolPortOptions } from "./pool/pool-node.ts";
import { MAX_CONNECTIONS } from "./pool/stratum-server.ts";
import type { VardiffOptions } from "./pool/vardiff.ts";
import { daemonEndpoint, PROJECT_SETTING, type Project, readProject, type StoredProject } from "./project.ts";

/** Vardiff moves a miner between a thousandth and a million times the start difficulty. */
const VARDIFF_BELOW = 2 ** 10;
const VARDIFF_ABOVE = 2 ** 20;

/** Vardiff around a port's start difficulty (the project's, or an extra port's own). */
function vardiffOf(p: Project, start = p.difficulty): VardiffOptions | null {
  if (p.vardiff_seconds === 0) return null;
  return { targetSeconds: p.vardiff_seconds, min: start / VARDIFF_BELOW, max: start * VARDIFF_ABOVE };
}

function listenerOf(p: Project, port: PoolPort | PoolPortInput): PoolPortOptions {
  const difficulty = port.difficulty ?? p.difficulty;
  return {
    port: port.port,
    difficulty,
    maxConnections: port.limit_connections,
    vardiff: vardiffOf(p, difficulty),
  };
}

/** A port of the pool as `ports` lists it: the project's own first, then the extra ones. */
export interface PoolPortView {
  port: number;
  /** the project's stratum port (set in the project, not removable here) */
  project: boolean;
  name: string;
  /** the start difficulty; null: the project's */
  difficulty: number | null;
  limit_connections: number;
  /** false while the pool is not running, or when the port could not be bound */
  listening: boolean;
  connections: number;
  /** why the port is not listening though the pool runs */
  error: string | null;
}

/** What ping/{id} tells of the daemon. */
export interface DaemonPing {
  ms: number;
  chain: string;
  blocks: number;
  headers: number;
  verificationprogress: number;
  initialblockdownload: boolean;
  /** caught up: not in initial block download and every header has its block */
  synced: boolean;
}

/** The daemon does not take an address as the pool's. */
export class AddressRefused extends Error {}

export type NodeState = "not_activated" | "activated" | "running";

export interface SyncInfo {
  chain: BlockchainInfo;
  /** the job miners work on now; null until the daemon gave a template */
  template: { height: number; transactions: number; bits: string; previousblockhash: string } | null;
  connections: number;
  blocks_found: number;
  /** the latest found blocks, newest first */
  blocks: {
    hash: string;
    height: number;
    worker: string;
    status: BlockStatus;
    confirmations: number | null;
    /** submitblock's reason when the daemon refused it */
    verdict: string | null;
    found_at: number;
  }[];
}

/** Blocks sync/info lists (the page shows the latest; the count covers all). */
const LISTED_BLOCKS = 50;

export class PoolNodeService {
  private pool: PoolNode | null = null;
  private ledger: PoolLedger | null = null;
  private payouts: Payouts | null = null;
  private payoutTimer: ReturnType<typeof setTimeout> | null = null;
  private payoutRun: Promise<void> | null = null;
  /** a cycle was asked for while one ran: the next follows at once rather than after the interval */
  private payoutAgain = false;
  private error = "";
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: SettingsStore,
    readonly store: PoolLedgerStore,
    readonly subaccounts: PoolSubaccountStore,
    private readonly extraPorts: PoolPortStore,
    private readonly host: string,
    private readonly log: (level: "running" | "error", message: string) => void,
  ) {}

  project(): StoredProject | null {
    return readProject(this.settings);
  }

  state(): NodeState {
    if (this.project()?.active !== true) return "not_activated";
    return this.pool === null ? "activated" : "running";
  }

  /** Why an activated node is not running ("" when it runs or is not activated). */
  get lastError(): string {
    return this.pool === null ? this.error : "";
  }

  get running(): PoolNode | null {
    return this.pool;
  }

  /** At start: an activated node starts its pool again; a daemon that does not answer is logged. */
  resume(): Promise<void> {
    return this.serial(async () => {
      if (this.project()?.active === true) await this.startPool().catch(() => {});
    });
  }

  /** Stores the project; a running pool restarts with it. */
  save(project: Project): Promise<void> {
    return this.serial(async () => {
      const active = this.project()?.active ?? false;
      this.settings.set<StoredProject>(PROJECT_SETTING, { ...project, active });
      if (this.pool !== null) {
        await this.stopPool();
        await this.startPool().catch(() => {});
      }
    });
  }

  /** Starts the pool; the node counts as activated only once it runs. */
  activate(): Promise<void> {
    return this.serial(async () => {
      const p = this.project();
      if (p === null) throw new Error("no project");
      if (this.pool === null) await this.startPool();
      this.settings.set<StoredProject>(PROJECT_SETTING, { ...p, active: true });
    });
  }

  deactivate(): Promise<void> {
    return this.serial(async () => {
      await this.stopPool();
      const p = this.project();
      if (p !== null) this.settings.set<StoredProject>(PROJECT_SETTING, { ...p, active: false });
    });
  }

  /** At shutdown: stops the pool, keeps the project active for the next start. */
  shutdown(): Promise<void> {
    return this.serial(() => this.stopPool());
  }

  /**
   * The addresses the project's daemon does not take (validateaddress), in order; through the running
   * pool's connection, or one made for the call while the pool is stopped.
   */
  async invalidAddresses(addresses: readonly string[]): Promise<string[]> {
    const daemon = this.daemon();
    const invalid: string[] = [];
    for (const address of addresses)
      if (!(await daemon.validateAddress(address)).isvalid) invalid.push(address);
    return invalid;
  }

  /** The running pool's daemon connection, or one made for the call while the pool is stopped. */
  private daemon(): DaemonCalls {
    const p = this.project();
    if (p === null) throw new Error("no project");
    return this.pool?.daemon ?? new DaemonCalls(new DaemonRpc(daemonEndpoint(p)));
  }

  /** The daemon's RPC round trip (one getblockchaininfo) and how far it has synced. */
  async ping(): Promise<DaemonPing> {
    const daemon = this.daemon();
    const started = performance.now();
    const chain = await daemon.getBlockchainInfo();
    const ms = performance.now() - started;
    return {
      ms: Math.round(ms * 10) / 10,
      chain: chain.chain,
      blocks: chain.blocks,
      headers: chain.headers,
      verificationprogress: chain.verificationprogress,
      initialblockdownload: chain.initialblockdownload,
      synced: !chain.initialblockdownload && chain.blocks >= chain.headers,
    };
  }

  /**
   * Changes where the coinbases pay, checked with the daemon first; the running pool sends miners a
   * job paying the new address at once, without a restart (miners stay connected).
   */
  updateAddress(address: string): Promise<StoredProject> {
    return this.serial(async () => {
      const p = this.project();
      if (p === null) throw new Error("no project");
      const v = await this.daemon().validateAddress(address);
      if (!v.isvalid || v.scriptPubKey === undefined) throw new AddressRefused(address);
      const next = { ...p, pool_address: address };
      this.settings.set<StoredProject>(PROJECT_SETTING, next);
      this.pool?.setPayoutScript(v.scriptPubKey);
      return next;
    });
  }

  /** The project's port and the extra ports, with the miners on each. */
  ports(): PoolPortView[] {
    const p = this.project();
    if (p === null) return [];
    const pool = this.pool;
    const view = (port: number) => {
      const connections = pool?.portConnections(port) ?? null;
      return {
        listening: connections !== null,
        connections: connections ?? 0,
        error: pool === null ? null : pool.portError(port),
      };
    };
    return [
      {
        port: p.stratum_port,
        project: true,
        name: "",
        difficulty: p.difficulty,
        limit_connections: MAX_CONNECTIONS,
        ...view(p.stratum_port),
      },
      ...this.extraPorts.list().map((e) => ({
        port: e.port,
        project: false,
        name: e.name,
        difficulty: e.difficulty,
        limit_connections: e.limit_connections,
        ...view(e.port),
      })),
    ];
  }

  extraPort(port: number): PoolPort | null {
    return this.extraPorts.get(port);
  }

  /** Whether the pool node uses this port number (its own or an extra one), running or not. */
  holdsPort(port: number): boolean {
    return this.project()?.stratum_port === port || this.extraPorts.get(port) !== null;
  }

  /** A new extra port; a running pool listens on it at once (a bind failure stores nothing). */
  addPort(input: PoolPortInput): Promise<PoolPort> {
    return this.serial(async () => {
      const p = this.project();
      if (p === null) throw new Error("no project");
      this.pool?.openPort(listenerOf(p, input));
      return this.extraPorts.create(input, Date.now());
    });
  }

  /** New difficulty and cap apply to the port's next connections; connected miners stay. */
  updatePort(input: PoolPortInput): Promise<PoolPort | null> {
    return this.serial(async () => {
      const saved = this.extraPorts.update(input, Date.now());
      const p = this.project();
      if (saved !== null && p !== null) this.pool?.retunePort(listenerOf(p, saved));
      return saved;
    });
  }

  /** Stops listening on an extra port (its miners are disconnected) and forgets it. */
  removePort(port: number): Promise<boolean> {
    return this.serial(async () => {
      this.pool?.closePort(port);
      return this.extraPorts.delete(port);
    });
  }

  /** A payout cycle now (an approved withdrawal is paid without waiting for the interval). */
  payoutSoon(): void {
    if (this.payouts === null) return;
    if (this.payoutRun !== null) this.payoutAgain = true;
    else {
      if (this.payoutTimer !== null) clearTimeout(this.payoutTimer);
      this.schedulePayouts(0);
    }
  }

  async syncInfo(pool: PoolNode): Promise<SyncInfo> {
    const chain = await pool.daemon.getBlockchainInfo();
    const t = pool.currentJob?.template ?? null;
    return {
      chain,
      template:
        t === null
          ? null
          : {
              height: t.height,
              transactions: t.transactions.length,
              bits: t.bits,
              previousblockhash: t.previousblockhash,
            },
      connections: pool.connections,
      blocks_found: this.store.blockCount(),
      blocks: this.store.blocks(LISTED_BLOCKS).map((b) => ({
        hash: b.hash,
        height: b.height,
        worker: b.worker,
        status: b.status,
        confirmations: b.confirmations,
        verdict: b.verdict,
        found_at: b.found_at,
      })),
    };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  private async startPool(): Promise<void> {
    const p = this.project();
    if (p === null) return;
    for (const address of this.store.checkBalances())
      this.log(
        "error",
        `pool node: the balance of ${address} disagreed with its credits and payouts; corrected`,
      );
    const ledger = new PoolLedger(
      this.store,
      () => {
        const now = this.project() ?? p;
        return { window: now.pplns_window, fee: now.fee, poolAddress: now.pool_address };
      },
      (m) => this.log("running", `pool node: ${m}`),
    );
    try {
      this.pool = await PoolNode.start({
        coin: p.coin,
        daemon: daemonEndpoint(p),
        poolAddress: p.pool_address,
        host: this.host,
        port: p.stratum_port,
        difficulty: p.difficulty,
        vardiff: vardiffOf(p),
        log: (m) => this.log("running", `pool node: ${m}`),
        accounting: ledger,
        extraPorts: this.extraPorts.list().map((e) => listenerOf(p, e)),
      });
      ledger.start();
      this.ledger = ledger;
      this.payouts = new Payouts(
        this.store,
        this.pool.daemon,
        () => ({ threshold: baseUnits((this.project() ?? p).payout_threshold) }),
        (m) => this.log("running", `pool node: ${m}`),
      );
      this.schedulePayouts(0);
      this.error = "";
      this.log("running", `pool node running on stratum port ${p.stratum_port}`);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.log("error", `pool node did not start: ${this.error}`);
      throw e;
    }
  }

  private async stopPool(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    // no cycle starts from now on, and one under way ends (a sendmany is not cut off halfway)
    this.payouts = null;
    if (this.payoutTimer !== null) clearTimeout(this.payoutTimer);
    this.payoutTimer = null;
    await this.payoutRun;
    await pool?.stop();
    await this.ledger?.stop();
    this.ledger = null;
  }

  private schedulePayouts(delayMs: number): void {
    this.payoutTimer = setTimeout(() => {
      this.payoutTimer = null;
      const payouts = this.payouts;
      if (payouts === null) return;
      this.payoutRun = payouts
        .cycle()
        .catch((e: unknown) =>
          this.log("error", `pool node: payouts: ${e instanceof Error ? e.message : String(e)}`),
        )
        .finally(() => {
          this.payoutRun = null;
          const p = this.project();
          const again = this.payoutAgain;
          this.payoutAgain = false;
          if (this.payouts !== null && p !== null)
            this.schedulePayouts(again ? 0 : p.payout_interval_seconds * 1000);
        });
    }, delayMs);
  }
}
