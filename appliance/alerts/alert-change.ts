/**
 * What a rule finds on a tick: the subjects whose condition holds (firing; already open ones are
 * left alone), the open ones whose condition cleared (resolved, with a notice), and the open ones to
 * close without a notice (the rule was turned off).
 */
import type { AlertVars } from "../store/alert-history.ts";

export type AlertKind =
  | "device_offline"
  | "hashrate_drop"
  | "pool_failover"
  | "fee_drift"
  | "disk_full"
  | "cert_expiry";

export interface Finding {
  subject: string;
  portId: number | null;
  vars: AlertVars;
}

export interface RuleResult {
  firing: Finding[];
  resolved: string[];
  quiet: string[];
}

/** An episode the rule may look at: open since a tick, with the values it fired with. */
export interface OpenEpisode {
  subject: string;
  vars: AlertVars;
}

export interface Rule<S> {
  kind: AlertKind;
  check(now: number, settings: S, open: ReadonlyMap<string, OpenEpisode>): RuleResult;
}

/** The catalogue key of a kind's firing and resolved notices. */
export const firingKey = (kind: AlertKind): string => `alerts.${kind}`;
export const resolvedKey = (kind: AlertKind): string => `alerts.${kind}_resolved`;

/** A rule turned off closes its open episodes without telling anyone. */
export const silenced = (open: ReadonlyMap<string, OpenEpisode>): RuleResult => ({
  firing: [],
  resolved: [],
  quiet: [...open.keys()],
});
