/**
 * The alerts of one appliance: the evaluator on its timer, the delivery of what it finds to the
 * push channels, and what the API reads (history, queue) and asks (a test message).
 */
import type { Database } from "bun:sqlite";
import type { PoolMove } from "../domain/engine.ts";
import { AlertHistoryStore, type AlertRow } from "../store/alert-history.ts";
import { AlertOutboxStore } from "../store/alert-outbox.ts";
import type { SettingsStore } from "../store/settings.ts";
import { type AlertMessage, composeMessage, testMessage } from "./alert-message.ts";
import { CertRule } from "./cert-rule.ts";
import { Delivery, type DeliveryTiming, enabledChannels, sendTo } from "./delivery.ts";
import { DiskRule } from "./disk-rule.ts";
import { AlertEvaluator } from "./evaluator.ts";
import { FeeDriftRule } from "./fee-drift-rule.ts";
import { HashrateRule, type HashrateWindows } from "./hashrate-rule.ts";
import { OfflineRule } from "./offline-rule.ts";
import { type ChannelName, readTargets } from "./push-targets.ts";
import { readAlertRules } from "./rule-settings.ts";
import type { RefreshedSources } from "./sources.ts";

export interface AlertTiming extends DeliveryTiming, HashrateWindows {
  /** how often the rules are evaluated */
  tickMs: number;
  /** devices that drop within this long of each other are reported together */
  burstMs: number;
  /** undelivered messages kept at most */
  queueLimit: number;
}

export const DEFAULT_ALERT_TIMING: AlertTiming = {
  tickMs: 5_000,
  burstMs: 30_000,
  recentMs: 5 * 60_000,
  baselineMs: 15 * 60_000,
  retryMs: 5_000,
  retryMaxMs: 30 * 60_000,
  sendTimeoutMs: 15_000,
  queueLimit: 1_000,
};

export interface TestResult {
  channel: ChannelName;
  ok: boolean;
  error?: string;
}

export class AlertService {
  readonly history: AlertHistoryStore;
  private readonly outbox: AlertOutboxStore<AlertMessage>;
  private readonly evaluator: AlertEvaluator;
  private readonly delivery: Delivery;
  private readonly timing: AlertTiming;
  private ticker: ReturnType<typeof setInterval> | null = null;
  /** the evaluation under way, if any: one at a time, and stop() waits for it */
  private evaluation: Promise<void> | null = null;

  constructor(
    db: Database,
    private readonly settings: SettingsStore,
    private readonly sources: RefreshedSources,
    private readonly instance: () => string,
    log: (level: "running" | "error", message: string) => void,
    timing: Partial<AlertTiming> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.timing = { ...DEFAULT_ALERT_TIMING, ...timing };
    this.history = new AlertHistoryStore(db);
    this.outbox = new AlertOutboxStore(db, this.timing.queueLimit);
    this.delivery = new Delivery(this.outbox, () => readTargets(settings), this.timing, clock, log);
    this.evaluator = new AlertEvaluator(
      this.history,
      [
        new OfflineRule(sources, this.timing.burstMs),
        new HashrateRule(sources, this.timing),
        new FeeDriftRule(sources),
        new DiskRule(sources),
        new CertRule(sources),
      ],
      () => sources.runningPorts(),
      (changes, rules) => this.delivery.enqueue(composeMessage(changes, rules.lang, clock(), instance())),
      (message) => log("error", message),
    );
  }

  start(): void {
    this.delivery.start();
    this.ticker = setInterval(() => {
      // an engine slow to answer skips a tick rather than piling evaluations up
      this.evaluation ??= this.evaluate().finally(() => {
        this.evaluation = null;
      });
    }, this.timing.tickMs);
  }

  private async evaluate(): Promise<void> {
    // A database that cannot be written (the disk full) or an engine that does not answer must not
    // take the appliance down with them.
    try {
      await this.sources.refresh();
      if (this.ticker === null) return;
      this.evaluator.tick(this.clock(), readAlertRules(this.settings));
    } catch (e) {
      console.error(`alert evaluation failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async stop(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    await this.evaluation;
    await this.delivery.stop();
  }

  /** The engine's failover and fail-back events. */
  poolMoved(portId: number, move: PoolMove): void {
    this.evaluator.poolMoved(portId, move);
  }

  list(limit: number): AlertRow[] {
    return this.history.list(limit);
  }

  queue(): { count: number; lastError: string } {
    return this.outbox.pending();
  }

  /** Sends a test message now to one channel or every enabled one, bypassing the queue. */
  async testSend(only: ChannelName | null): Promise<TestResult[]> {
    const channels = readTargets(this.settings);
    const names = only === null ? enabledChannels(channels) : [only];
    const message = testMessage(readAlertRules(this.settings).lang, this.clock(), this.instance());
    return Promise.all(
      names.map((channel) =>
        sendTo(channel, channels, message, this.timing.sendTimeoutMs).then(
          (): TestResult => ({ channel, ok: true }),
          (e: unknown): TestResult => ({
            channel,
            ok: false,
            error: e instanceof Error ? e.message : String(e),
          }),
        ),
      ),
    );
  }
}
