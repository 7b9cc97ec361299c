import type { DeviceView, PortStatsView } from "../domain/engine.ts";
import type { Port } from "../domain/port.ts";
import type { ProcessReadings } from "./process-readings.ts";

export interface PortMetricsInput {
  port: Port;
  state: string;
  stats: PortStatsView;
  /** the port's devices; read from the engine only when per-device series are asked for, else empty */
  devices: DeviceView[];
}

export interface MetricsInput {
  version: string;
  /** epoch seconds the appliance started */
  startTimeSeconds: number;
  process: ProcessReadings;
  /** bytes of the SQLite database and its write-ahead log */
  databaseBytes: number;
  ports: PortMetricsInput[];
  /** per-device series (`?devices=1`): one series per rig, which a farm can have thousands of */
  perDevice: boolean;
}

type Labels = Record<string, string | number>;
type Row = [Labels, number];

/** Prometheus label values: backslash, quote and newline escaped. */
function labelValue(v: string | number): string {
  return String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${labelValue(v)}"`);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

const portLabels = (p: PortMetricsInput): Labels => ({ port: p.port.port, coin: p.port.currency });

/**
 * The appliance's metrics in the Prometheus text exposition format (design.md "Scaling past one
 * box"). Names carry their unit and counters end in `_total`; series are per port (labels port and
 * coin), so their number is bounded by the configuration, and per device only when asked for.
 * docs/metrics.md lists every metric; keep it in step.
 */
export function renderMetrics(m: MetricsInput): string {
  const out: string[] = [];
  const family = (name: string, type: "gauge" | "counter", help: string, rows: Row[]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of rows)
      out.push(`${name}${labelText(labels)} ${Number.isFinite(value) ? value : 0}`);
  };
  const perPort = (f: (p: PortMetricsInput) => number, extra: Labels = {}): Row[] =>
    m.ports.map((p) => [{ ...portLabels(p), ...extra }, f(p)]);

  family("pithead_build_info", "gauge", "Version of the running appliance (always 1).", [
    [{ version: m.version }, 1],
  ]);
  family("process_start_time_seconds", "gauge", "Start time of the process, seconds since the epoch.", [
    [{}, m.startTimeSeconds],
  ]);
  family("process_resident_memory_bytes", "gauge", "Resident set size of the process.", [
    [{}, m.process.residentBytes],
  ]);
  family("pithead_js_heap_used_bytes", "gauge", "JavaScript heap in use.", [[{}, m.process.heapUsedBytes]]);
  family("process_open_fds", "gauge", "Open file descriptors (sockets included).", [[{}, m.process.openFds]]);
  family("process_cpu_seconds_total", "counter", "User and system CPU time spent.", [
    [{}, m.process.cpuSeconds],
  ]);
  family("pithead_database_size_bytes", "gauge", "SQLite database file plus its write-ahead log.", [
    [{}, m.databaseBytes],
  ]);
  family(
    "pithead_port_up",
    "gauge",
    "1 when the port listens.",
    perPort((p) => (p.state === "active" ? 1 : 0)),
  );
  family(
    "pithead_port_miners_connected",
    "gauge",
    "Miner connections open on the port.",
    perPort((p) => p.stats.online),
  );
  family(
    "pithead_port_devices_known",
    "gauge",
    "Devices (wallet, worker, address) the port knows, online or not.",
    perPort((p) => p.stats.devices),
  );
  family(
    "pithead_port_hashrate_hashes_per_second",
    "gauge",
    "Accepted hashrate over the last minutes, as the console shows it.",
    perPort((p) => p.stats.hashrate.current),
  );
  family(
    "pithead_port_fee_hashrate_hashes_per_second",
    "gauge",
    "Part of the hashrate accepted by fee wallets' pools, last minutes.",
    perPort((p) => p.stats.pumped.current),
  );
  family("pithead_port_shares_total", "counter", "Shares answered, by result.", [
    ...perPort((p) => p.stats.valid, { result: "accepted" }),
    ...perPort((p) => p.stats.invalid, { result: "rejected" }),
    ...perPort((p) => p.stats.stale, { result: "stale" }),
  ]);
  family(
    "pithead_port_accepted_work_hashes_total",
    "counter",
    "Work the pools accepted, in hashes; target main or fee (fee wallets' pools).",
    [
      ...perPort((p) => p.stats.work.accepted - p.stats.work.feeAccepted, { target: "main" }),
      ...perPort((p) => p.stats.work.feeAccepted, { target: "fee" }),
    ],
  );
  family(
    "pithead_port_rejected_work_hashes_total",
    "counter",
    "Work of the shares the pools rejected, in hashes.",
    perPort((p) => p.stats.work.rejected),
  );
  family(
    "pithead_port_fee_configured_ratio",
    "gauge",
    "Sum of the port's fee wallet ratios (0.02 = 2 %).",
    perPort((p) => p.stats.fee.configured),
  );
  family(
    "pithead_port_fee_target_ratio",
    "gauge",
    "Fee share the accepted work should hold, device and wallet overrides weighted in.",
    perPort((p) => p.stats.fee.target),
  );
  family(
    "pithead_port_fee_achieved_ratio",
    "gauge",
    "Fee share of the accepted work (hashrate protection excluded), as the console shows it.",
    perPort((p) => p.stats.fee.achieved),
  );
  family(
    "pithead_port_pool_latency_seconds",
    "gauge",
    "Moving average of share submit to pool answer.",
    perPort((p) => p.stats.latencyMs / 1000),
  );
  family("pithead_port_pool_sessions", "gauge", "Upstream sessions open, to the main or fee pools.", [
    ...perPort((p) => p.stats.upstreamSessions, { pool: "main" }),
    ...perPort((p) => p.stats.feeSessions, { pool: "fee" }),
  ]);
  family(
    "pithead_port_on_standby",
    "gauge",
    "1 while the port's main traffic goes to the standby pool.",
    perPort((p) => (p.stats.upstream === "standby" ? 1 : 0)),
  );
  if (m.perDevice) renderDevices(m.ports, family);
  return `${out.join("\n")}\n`;
}

function renderDevices(
  ports: PortMetricsInput[],
  family: (name: string, type: "gauge" | "counter", help: string, rows: Row[]) => void,
): void {
  const devices = ports.flatMap((p) =>
    p.devices.map((d) => ({
      labels: { ...portLabels(p), wallet: d.wallet, worker: d.name, ip: d.ip },
      d,
    })),
  );
  const each = (f: (d: DeviceView) => number, extra: Labels = {}): Row[] =>
    devices.map(({ labels, d }) => [{ ...labels, ...extra }, f(d)]);
  family(
    "pithead_device_up",
    "gauge",
    "1 while the device has a connection open.",
    each((d) => (d.online ? 1 : 0)),
  );
  family(
    "pithead_device_hashrate_hashes_per_second",
    "gauge",
    "Accepted hashrate of the device over the last minutes.",
    each((d) => d.hashrate.current),
  );
  family("pithead_device_shares_total", "counter", "Shares of the device answered, by result.", [
    ...each((d) => d.valid, { result: "accepted" }),
    ...each((d) => d.invalid, { result: "rejected" }),
    ...each((d) => d.stale, { result: "stale" }),
  ]);
  family(
    "pithead_device_fee_achieved_ratio",
    "gauge",
    "Fee share of the device's accepted work.",
    each((d) => d.feeAchieved),
  );
}
