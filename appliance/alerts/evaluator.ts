/**
 * The alert evaluator: on a timer (never per share) it asks each rule what holds now, opens and
 * closes episodes in the history, and hands what changed on this tick to `notify` as one batch.
 * Pool failovers arrive as engine events between ticks and are taken in order on the next one.
 * Episodes still open from before a restart are taken over, so a lasting condition is not reported
 * twice and its recovery is still reported.
 */
import type { PoolMove } from "../domain/engine.ts";
import type { AlertHistoryStore } from "../store/alert-history.ts";
import {
  type AlertKind,
  type Finding,
  firingKey,
  type OpenEpisode,
  type Rule,
  resolvedKey,
} from "./alert-change.ts";
import type { AlertChange } from "./alert-message.ts";
import { portSubject } from "./hashrate-rule.ts";
import type { AlertRules } from "./rule-settings.ts";
import type { RunningPort } from "./sources.ts";

interface Episode extends OpenEpisode {
  id: number;
  portId: number | null;
}

export class AlertEvaluator {
  private readonly open = new Map<string, Map<string, Episode>>();
  private moves: { portId: number; move: PoolMove }[] = [];

  constructor(
    private readonly history: AlertHistoryStore,
    private readonly rules: Rule<AlertRules>[],
    private readonly ports: () => RunningPort[],
    private readonly notify: (changes: AlertChange[], settings: AlertRules) => void,
    private readonly log: (message: string) => void,
  ) {
    for (const row of history.firing()) {
      this.episodes(row.kind).set(row.subject, row);
    }
  }

  /** An engine event: a port's main traffic moved to its standby pool or back. */
  poolMoved(portId: number, move: PoolMove): void {
    this.moves.push({ portId, move });
  }

  tick(now: number, settings: AlertRules): void {
    const changes: AlertChange[] = [];
    this.history.batch(() => {
      this.takeMoves(now, settings, changes);
      for (const rule of this.rules) {
        try {
          const open = this.episodes(rule.kind);
          const found = rule.check(now, settings, open);
          for (const f of found.firing) this.fire(rule.kind, f, now, changes);
          for (const s of found.resolved) this.resolve(rule.kind, s, now, changes);
          for (const s of found.quiet) this.resolve(rule.kind, s, now, null);
        } catch (e) {
          this.log(`alert rule ${rule.kind} failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    });
    if (changes.length > 0) this.notify(changes, settings);
  }

  private takeMoves(now: number, settings: AlertRules, changes: AlertChange[]): void {
    for (const { portId, move } of this.moves.splice(0)) {
      if (!settings.pool_failover) continue;
      const port = this.ports().find((p) => p.id === portId)?.port ?? portId;
      const subject = portSubject(portId);
      if (move.to === "standby") {
        const vars = { port, from: move.from, to: move.target, reason: move.reason };
        this.fire("pool_failover", { subject, portId, vars }, now, changes);
      } else this.resolve("pool_failover", subject, now, changes);
    }
  }

  private episodes(kind: string): Map<string, Episode> {
    let m = this.open.get(kind);
    if (m === undefined) {
      m = new Map();
      this.open.set(kind, m);
    }
    return m;
  }

  private fire(kind: AlertKind, f: Finding, now: number, changes: AlertChange[]): void {
    const open = this.episodes(kind);
    if (open.has(f.subject)) return;
    const key = firingKey(kind);
    const id = this.history.fire(kind, f.subject, f.portId, key, f.vars, now);
    open.set(f.subject, { id, subject: f.subject, portId: f.portId, vars: f.vars });
    changes.push({ id, kind, state: "firing", subject: f.subject, portId: f.portId, key, vars: f.vars });
  }

  /** Closes an open episode; `changes` null: quietly (the rule was turned off). */
  private resolve(kind: AlertKind, subject: string, now: number, changes: AlertChange[] | null): void {
    const open = this.episodes(kind);
    const e = open.get(subject);
    if (e === undefined) return;
    open.delete(subject);
    this.history.resolve(e.id, now);
    changes?.push({
      id: e.id,
      kind,
      state: "resolved",
      subject,
      portId: e.portId,
      key: resolvedKey(kind),
      vars: e.vars,
    });
  }
}
