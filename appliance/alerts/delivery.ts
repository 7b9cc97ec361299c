/**
 * Delivery of alert messages to the push channels through the persisted outbox: each message is
 * queued once per enabled channel, sent in order, and retried with doubling delays while its
 * receiver is down; a restart finds the queue where it was left. A message that still fails after
 * MAX_ATTEMPTS is dropped with an error log line, as is the oldest one when the queue is full.
 */
import type { AlertOutboxStore } from "../store/alert-outbox.ts";
import type { AlertMessage } from "./alert-message.ts";
import { sendEmail } from "./channels/email.ts";
import { sendServerChan } from "./channels/serverchan.ts";
import { sendTelegram } from "./channels/telegram.ts";
import { sendWebhook } from "./channels/webhook.ts";
import { CHANNEL_NAMES, type ChannelName, type PushTargets } from "./push-targets.ts";

export interface DeliveryTiming {
  /** first retry delay; doubles per attempt up to retryMaxMs */
  retryMs: number;
  retryMaxMs: number;
  /** one send attempt may take this long */
  sendTimeoutMs: number;
}

const MAX_ATTEMPTS = 30;
/** messages sent per round; the next round follows at once while more are due */
const BATCH = 20;

export const enabledChannels = (c: PushTargets): ChannelName[] => CHANNEL_NAMES.filter((n) => c[n].enabled);

/** One attempt to hand a message to a channel; rejects with the reason. */
export function sendTo(name: ChannelName, c: PushTargets, m: AlertMessage, timeoutMs: number): Promise<void> {
  if (name === "webhook") return sendWebhook(c.webhook, m, timeoutMs);
  if (name === "telegram") return sendTelegram(c.telegram, m, timeoutMs);
  if (name === "serverchan") return sendServerChan(c.serverchan, m, timeoutMs);
  return sendEmail(c.email, m, timeoutMs);
}

export class Delivery {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly outbox: AlertOutboxStore<AlertMessage>,
    private readonly channels: () => PushTargets,
    private readonly timing: DeliveryTiming,
    private readonly clock: () => number,
    private readonly log: (level: "running" | "error", message: string) => void,
  ) {}

  enqueue(message: AlertMessage): void {
    const now = this.clock();
    for (const name of enabledChannels(this.channels())) {
      const dropped = this.outbox.push(name, message, now);
      if (dropped > 0) this.log("error", `alert queue full: dropped the ${dropped} oldest message(s)`);
    }
    this.schedule(0);
  }

  /** Sends whatever is due now and keeps a timer for the next retry. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round()
        .catch((e: unknown) =>
          console.error(`alert delivery failed: ${e instanceof Error ? e.message : String(e)}`),
        )
        .finally(() => {
          this.running = null;
          try {
            const next = this.outbox.nextDue();
            if (next !== null) this.schedule(Math.max(0, next - this.clock()));
          } catch (e) {
            // the outbox could not be read (the disk): try again on the next message or start
            console.error(`alert queue unreadable: ${e instanceof Error ? e.message : String(e)}`);
          }
        });
    }, delayMs);
  }

  private async round(): Promise<void> {
    const channels = this.channels();
    for (const item of this.outbox.due(this.clock(), BATCH)) {
      if (this.stopped) return;
      const name = item.channel as ChannelName;
      if (!CHANNEL_NAMES.includes(name) || !channels[name].enabled) {
        this.outbox.remove(item.id);
        continue;
      }
      try {
        await sendTo(name, channels, item.message, this.timing.sendTimeoutMs);
        this.outbox.remove(item.id);
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        if (item.attempts + 1 >= MAX_ATTEMPTS) {
          this.outbox.remove(item.id);
          this.log("error", `alert to ${name} dropped after ${MAX_ATTEMPTS} attempts: ${reason}`);
          continue;
        }
        const delay = Math.min(this.timing.retryMs * 2 ** item.attempts, this.timing.retryMaxMs);
        this.outbox.failed(item.id, this.clock() + delay, reason);
      }
    }
  }
}
