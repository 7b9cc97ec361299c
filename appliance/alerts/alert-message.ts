/**
 * One push message: what changed on one evaluation tick, in the operator's language. Many devices
 * changing the same way on one tick become one line ("20 devices offline: …"), so 500 rigs behind
 * one switch make one message, not 500.
 */
import type { AlertState, AlertVars } from "../store/alert-history.ts";
import type { AlertKind } from "./alert-change.ts";
import { render } from "./catalogue.ts";
import type { AlertLanguage } from "./rule-settings.ts";

/** A fired or resolved episode, as the evaluator hands it over. */
export interface AlertChange {
  id: number;
  kind: AlertKind;
  state: AlertState;
  subject: string;
  portId: number | null;
  key: string;
  vars: AlertVars;
}

export interface AlertMessage {
  title: string;
  /** one line per change or group */
  text: string;
  lang: AlertLanguage;
  /** ms since the epoch */
  at: number;
  /** this instance's id, so that one receiver can tell several appliances apart */
  instance: string;
  alerts: {
    id: number;
    kind: string;
    state: AlertState;
    subject: string;
    port_id: number | null;
    text: string;
  }[];
}

/** Devices named in a grouped line before "and N more". */
const NAMED = 10;

function groupLine(lang: AlertLanguage, key: string, changes: AlertChange[]): string {
  const names = changes.slice(0, NAMED).map((c) => `${c.vars.device} (${c.vars.port})`);
  if (changes.length > NAMED) names.push(render(lang, "alerts.and_more", { n: changes.length - NAMED }));
  return render(lang, key, { n: changes.length, devices: names.join(", ") });
}

export function composeMessage(
  changes: AlertChange[],
  lang: AlertLanguage,
  at: number,
  instance: string,
): AlertMessage {
  const lines: string[] = [];
  const grouped = new Set<AlertChange>();
  for (const state of ["firing", "resolved"] as const) {
    const devices = changes.filter((c) => c.kind === "device_offline" && c.state === state);
    if (devices.length < 2) continue;
    lines.push(groupLine(lang, `alerts.device_offline_group_${state}`, devices));
    for (const d of devices) grouped.add(d);
  }
  const alerts = changes.map((c) => {
    const text = render(lang, c.key, c.vars);
    if (!grouped.has(c)) lines.push(text);
    return { id: c.id, kind: c.kind, state: c.state, subject: c.subject, port_id: c.portId, text };
  });
  const title = lines.length === 1 ? (lines[0] as string) : render(lang, "alerts.title", { n: lines.length });
  return { title, text: lines.join("\n"), lang, at, instance, alerts };
}

/** The message the test-send button pushes. */
export function testMessage(lang: AlertLanguage, at: number, instance: string): AlertMessage {
  const text = render(lang, "alerts.test", { instance });
  return { title: text, text, lang, at, instance, alerts: [] };
}
