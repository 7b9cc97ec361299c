/**
 * The Grafana dashboard in docs/grafana/pithead.json as the tests read it: its panels' PromQL, its
 * template variables' queries, and the metric names a PromQL expression selects.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface DashboardTarget {
  refId: string;
  expr: string;
  datasource: { type: string; uid: string };
}

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource: { type: string; uid: string };
  fieldConfig: { defaults: { unit?: string } };
  targets: DashboardTarget[];
}

export interface DashboardVariable {
  name: string;
  type: string;
  query: string | { query: string };
}

export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: DashboardPanel[];
  templating: { list: DashboardVariable[] };
}

export const DASHBOARD_FILE = join(import.meta.dir, "..", "..", "docs", "grafana", "pithead.json");

export function loadDashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")) as Dashboard;
}

/**
 * Every PromQL the dashboard sends: the panels' and the selectors of its query variables (Grafana's
 * `label_values(selector, label)` asks Prometheus for the series of the selector).
 */
export function dashboardQueries(d: Dashboard): string[] {
  const panels = d.panels.flatMap((p) => p.targets.map((t) => t.expr));
  const variables = d.templating.list
    .filter((v) => v.type === "query")
    .map((v) => (typeof v.query === "string" ? v.query : v.query.query))
    .map((q) => q.replace(/^label_values\((.*),\s*\w+\)$/, "$1"));
  return [...panels, ...variables];
}

/** The dashboard's variables replaced so that Prometheus can run the expression itself. */
export function runnable(expr: string, rateInterval: string): string {
  return expr.replaceAll("$__rate_interval", rateInterval).replace(/\$[a-z_]+/g, ".+");
}

/** words of PromQL that are neither functions (always followed by "(") nor metric names */
const KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset"]);
const BINARY_WORDS = new Set(["and", "or", "unless"]);

/**
 * The metric names an expression selects: strings, label matchers, ranges and grouping label lists
 * removed, what remains as a bare word that is not a function call, a keyword, a `$variable` or the
 * unit of a number or duration.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names = new Set<string>();
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = m[0];
    const before = bare[m.index - 1] ?? " ";
    if (before === "$" || /[0-9.]/.test(before)) continue;
    if (
      bare
        .slice(m.index + word.length)
        .trimStart()
        .startsWith("(")
    )
      continue;
    if (KEYWORDS.has(word) || BINARY_WORDS.has(word)) continue;
    names.add(word);
  }
  return [...names];
}
