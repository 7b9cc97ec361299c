import type { PortStatsView } from "../domain/engine.ts";
import type { Port } from "../domain/port.ts";

export interface MetricsInput {
  version: string;
  uptimeSeconds: number;
  ports: { port: Port; state: string; stats: PortStatsView }[];
}

/** Prometheus label values: backslash, quote and newline escaped. */
function label(v: string | number): string {
  return String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/**
 * Fleet metrics in the Prometheus text exposition format (design.md "Scaling past one box"): one
 * series per port, labelled with its number and coin, so a farm's appliances can share one dashboard.
 */
export function renderMetrics(m: MetricsInput): string {
  const out: string[] = [];
  const family = (name: string, type: "gauge" | "counter", help: string, rows: [string, number][]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of rows) out.push(`${name}${labels} ${Number.isFinite(value) ? value : 0}`);
  };
  const per = (f: (p: MetricsInput["ports"][number]) => number, extra = "") =>
    m.ports.map((p): [string, number] => [
      `{port="${p.port.port}",coin="${label(p.port.currency)}"${extra}}`,
      f(p),
    ]);

  family("pithead_info", "gauge", "Version of the running appliance.", [
    [`{version="${label(m.version)}"}`, 1],
  ]);
  family("pithead_uptime_seconds", "gauge", "Seconds since the appliance started.", [["", m.uptimeSeconds]]);
  family(
    "pithead_port_up",
    "gauge",
    "1 when the port listens.",
    per((p) => (p.state === "active" ? 1 : 0)),
  );
  family(
    "pithead_port_devices_online",
    "gauge",
    "Devices connected to the port.",
    per((p) => p.stats.online),
  );
  family(
    "pithead_port_hashrate_hps",
    "gauge",
    "Accepted hashrate over 15 minutes, hashes per second.",
    per((p) => p.stats.hashrate.m15),
  );
  family(
    "pithead_port_fee_hashrate_hps",
    "gauge",
    "Part of the hashrate diverted to fee wallets, 15 minutes.",
    per((p) => p.stats.pumped.m15),
  );
  family("pithead_port_shares_total", "counter", "Shares answered by the pools, by result.", [
    ...per((p) => p.stats.valid, ',result="valid"'),
    ...per((p) => p.stats.invalid, ',result="invalid"'),
    ...per((p) => p.stats.stale, ',result="stale"'),
  ]);
  family(
    "pithead_port_latency_ms",
    "gauge",
    "Average submit to pool answer, milliseconds.",
    per((p) => p.stats.latencyMs),
  );
  family(
    "pithead_port_fee_ratio_configured",
    "gauge",
    "Configured fee share of accepted work.",
    per((p) => p.stats.fee.configured),
  );
  family(
    "pithead_port_fee_ratio_achieved",
    "gauge",
    "Achieved fee share of accepted work.",
    per((p) => p.stats.fee.achieved),
  );
  family(
    "pithead_port_on_standby",
    "gauge",
    "1 while the port's main traffic goes to the standby pool.",
    per((p) => (p.stats.upstream === "standby" ? 1 : 0)),
  );
  return `${out.join("\n")}\n`;
}
