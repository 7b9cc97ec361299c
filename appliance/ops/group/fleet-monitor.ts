/**
 * The fleet view: each remote's live state, read in the background so the group-control list answers
 * at once however many remotes there are and whichever of them hang. A round calls a few remotes at a
 * time (bounded concurrency), each call with its own timeout; a remote that does not answer keeps the
 * time it stopped answering and the last time it did.
 */
import type { AuditLog } from "../../store/audit-log.ts";
import type { RemoteClient, RemoteClientStore } from "../../store/remote-clients.ts";
import type { MessageKey } from "../../web/messages.ts";
import { getRemoteJson, RemoteCallError } from "./remote-call.ts";

export type RemoteHealth =
  /** not checked yet */
  | "pending"
  | "online"
  /** did not answer, or answered with an error */
  | "offline"
  /** registered before pinning: not called until the operator confirms its certificate */
  | "unpinned"
  /** presented another certificate than the pinned one (or is plain http): not called */
  | "refused";

export interface RemoteState {
  state: RemoteHealth;
  /** ISO time the current state began: for "offline", since when the remote has not answered */
  since: string | null;
  /** ISO time of the last check */
  checked_at: string | null;
  /** ISO time the remote last answered */
  last_seen: string | null;
  error_key?: MessageKey;
  error?: string;
  /** the fingerprint presented instead of the pinned one */
  presented?: string;
  version?: unknown;
  stat?: unknown;
}

export interface FleetOptions {
  intervalMs?: number;
  timeoutMs?: number;
  concurrency?: number;
}

/** Not checked since this process started: only when it last answered, which the store keeps. */
const unchecked = (c: RemoteClient): RemoteState => ({
  state: "pending",
  since: null,
  checked_at: null,
  last_seen: c.last_seen || null,
});

export class FleetMonitor {
  private readonly states = new Map<number, RemoteState>();
  /** the presented fingerprint last written to the audit log per remote, so a refusal is logged once */
  private readonly audited = new Map<number, string>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private round: Promise<void> | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;

  constructor(
    private readonly remotes: RemoteClientStore,
    private readonly audit: AuditLog,
    opts: FleetOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 15_000;
    this.timeoutMs = opts.timeoutMs ?? 4000;
    this.concurrency = opts.concurrency ?? 4;
  }

  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
  }

  /** Stops the timer and waits for the checks under way (they write to the audit log). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all(this.pending);
  }

  /** What the last round saw; a remote that is not pinned is not called, so it needs no round to say so. */
  state(c: RemoteClient): RemoteState {
    if (!c.fingerprint) return { ...unchecked(c), state: "unpinned", error_key: "lang.remote.err_unpinned" };
    return this.states.get(c.id) ?? unchecked(c);
  }

  forget(id: number): void {
    this.states.delete(id);
    this.audited.delete(id);
  }

  /** One round over every remote (or waits for the round under way); `only` checks just those ids. */
  refresh(only?: number[]): Promise<void> {
    if (only) return this.checkAll(this.remotes.list().filter((c) => only.includes(c.id)));
    this.round ??= this.checkAll(this.remotes.list()).finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async checkAll(list: RemoteClient[]): Promise<void> {
    const all = Promise.all(list.map((c) => this.limited(() => this.check(c))));
    this.pending.add(all);
    await all.finally(() => this.pending.delete(all));
    const known = new Set(this.remotes.list().map((c) => c.id));
    for (const id of this.states.keys()) if (!known.has(id)) this.forget(id);
  }

  /** At most `concurrency` remotes are called at once, rounds and single checks together. */
  private async limited(task: () => Promise<void>): Promise<void> {
    while (this.busy >= this.concurrency) await new Promise<void>((wake) => this.waiting.push(wake));
    this.busy++;
    try {
      await task();
    } finally {
      this.busy--;
      this.waiting.shift()?.();
    }
  }

  private async check(c: RemoteClient): Promise<void> {
    const now = new Date().toISOString();
    const before = this.states.get(c.id) ?? unchecked(c);
    const next = (
      s: Omit<RemoteState, "since" | "checked_at" | "last_seen">,
      seen: boolean,
    ): RemoteState => ({
      ...s,
      since: before.state === s.state && before.since ? before.since : now,
      checked_at: now,
      last_seen: seen ? now : before.last_seen,
    });
    if (!c.fingerprint) return;
    try {
      const [version, stat] = await Promise.all([
        getRemoteJson(c, "local/version", this.timeoutMs),
        getRemoteJson(c, "sys/stat", this.timeoutMs),
      ]);
      this.states.set(c.id, next({ state: "online", version, stat }, true));
      this.remotes.seen(c.id, now);
      this.audited.delete(c.id);
    } catch (err) {
      const e =
        err instanceof RemoteCallError ? err : new RemoteCallError("lang.remote.err_fetch", String(err));
      const refused = e.key === "lang.remote.err_fingerprint" || e.key === "lang.remote.err_https";
      this.states.set(
        c.id,
        next(
          {
            state: refused ? "refused" : "offline",
            error_key: e.key,
            error: e.message,
            ...(e.presented ? { presented: e.presented } : {}),
          },
          false,
        ),
      );
      if (e.key === "lang.remote.err_fingerprint") this.auditRefusal(c, e);
    }
  }

  private auditRefusal(c: RemoteClient, e: RemoteCallError): void {
    if (this.audited.get(c.id) === e.presented) return;
    this.audited.set(c.id, e.presented);
    this.audit.append({
      credential: "none",
      session: "",
      address: "",
      action: "group-control background refresh",
      object: `group-control client ${c.id} (${c.address})`,
      outcome: "refused",
      detail: `certificate fingerprint ${e.presented} is not the pinned ${c.fingerprint}`,
    });
  }
}
