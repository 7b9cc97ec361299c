/**
 * A stratum client driven by hand for the pool-node tests: it takes the pool's job, finds nonces with
 * @noble/hashes (scrypt) whose value passes a test the caller sets — a share that is not a block, a
 * block, a share too weak — and submits them one by one, so a test knows exactly which shares the pool
 * was given and in which order.
 */
import {
  type Notify,
  parseNotify,
  parseSubscribeResult,
} from "../../../appliance/engine/stratum/bitcoin/messages.ts";
import { stratumPrevHash } from "../../../appliance/poolnode/pool/job.ts";
import { until } from "../stratum/port-fixture.ts";
import { RawClient } from "../stratum/raw-client.ts";
import { digestValue, headerOf, powDigest } from "../stratum/share-check.ts";

export class HandMiner {
  private constructor(
    private readonly client: RawClient,
    readonly user: string,
    readonly extranonce1: string,
    public job: Notify,
  ) {}

  private messages(method: string): unknown[][] {
    return this.client.lines
      .map((l) => JSON.parse(l) as { method?: string; params: unknown[] })
      .filter((m) => m.method === method)
      .map((m) => m.params);
  }

  /** The set_difficulty values received, in order. */
  difficulties(): number[] {
    return this.messages("mining.set_difficulty").map((p) => p[0] as number);
  }

  /** Waits for a job after the one in hand and takes it. */
  async nextJob(): Promise<void> {
    const jobs = () => this.messages("mining.notify").map((p) => parseNotify(p) as Notify);
    const seen = jobs().findIndex((j) => j.jobId === this.job.jobId);
    await until(() => jobs().length > seen + 1);
    this.job = jobs()[jobs().length - 1] as Notify;
  }

  /** Waits until the pool's newest job is on the tip `previousBlockHash` (display order), and takes it. */
  async jobOn(previousBlockHash: string): Promise<void> {
    const latest = () => {
      const all = this.messages("mining.notify");
      return parseNotify(all[all.length - 1] ?? []) as Notify;
    };
    await until(() => stratumPrevHash(previousBlockHash) === latest().prevHash);
    this.job = latest();
  }

  static async connect(port: number, user: string, versionMask?: string): Promise<HandMiner> {
    const c = await RawClient.connect(port);
    if (versionMask !== undefined)
      c.request(3, "mining.configure", [["version-rolling"], { "version-rolling.mask": versionMask }]);
    c.request(1, "mining.subscribe", ["hand/1.0"]);
    c.request(2, "mining.authorize", [user, "x"]);
    await until(() => c.answer(1) !== undefined && c.answer(2) !== undefined);
    if (c.answer(2)?.error !== null)
      throw new Error(`authorize refused: ${JSON.stringify(c.answer(2)?.error)}`);
    const subscribed = parseSubscribeResult(c.answer(1)?.result);
    if (!("extranonce1" in subscribed)) throw new Error("bad subscribe answer");
    const notify = () =>
      c.lines
        .map((l) => JSON.parse(l) as { method?: string; params: unknown[] })
        .find((m) => m.method === "mining.notify");
    await until(() => notify() !== undefined);
    const job = parseNotify(notify()?.params ?? []);
    if (!("jobId" in job)) throw new Error("bad notify");
    return new HandMiner(c, user, subscribed.extranonce1, job);
  }

  /** The pool's answer to mining.configure (sent by connect when given a mask). */
  get configured(): unknown {
    return this.client.answer(3)?.result;
  }

  /** The first nonce whose scrypt value passes `wanted`. */
  find(extranonce2: string, wanted: (value: bigint) => boolean): string {
    for (let n = 0; ; n++) {
      const nonce = n.toString(16).padStart(8, "0");
      const header = headerOf({ ...this.job, extranonce1: this.extranonce1, extranonce2, nonce });
      if (wanted(digestValue(powDigest(header, "scrypt")))) return nonce;
    }
  }

  private nextId = 10;

  /** The pool's error for this share (null: accepted). */
  async submit(
    extranonce2: string,
    nonce: string,
    over: { jobId?: string; worker?: string; versionBits?: string } = {},
  ): Promise<unknown> {
    return this.verdict(this.send(extranonce2, nonce, over));
  }

  /** Sends a share without waiting for its answer; returns the request id. */
  send(
    extranonce2: string,
    nonce: string,
    over: { jobId?: string; worker?: string; versionBits?: string } = {},
  ): number {
    const id = this.nextId++;
    this.client.request(id, "mining.submit", [
      over.worker ?? this.user,
      over.jobId ?? this.job.jobId,
      extranonce2,
      this.job.ntime,
      nonce,
      ...(over.versionBits === undefined ? [] : [over.versionBits]),
    ]);
    return id;
  }

  async verdict(id: number): Promise<unknown> {
    await until(() => this.client.answer(id) !== undefined);
    return this.client.answer(id)?.error;
  }

  get closed(): boolean {
    return this.client.closed;
  }

  close(): void {
    this.client.close();
  }
}
