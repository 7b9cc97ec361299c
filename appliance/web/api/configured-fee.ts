import type { PortStatsView } from "../../domain/engine.ts";
import type { Port } from "../../domain/port.ts";

/**
 * The fee figures of a port that is not running. The engine only knows the fee wallets of the ports it
 * runs, so for a stopped port it answers 0 %; but what is configured is the configuration's, running
 * or not. A stopped port shows what a running port with no work yet shows: target = configured,
 * nothing achieved, no gap.
 */
export function withConfiguredFee(stats: PortStatsView, port: Port, running: boolean): PortStatsView {
  if (running) return stats;
  // the engine skips rows without an address the same way (they take no work)
  const wallets = port.wallets
    .filter((w) => w.addr.trim() !== "")
    .map((w) => ({
      walletId: w.id,
      addr: w.addr.trim(),
      configured: w.ratio,
      target: w.ratio,
      achieved: 0,
      gap: 0,
      work: 0,
    }));
  const configured = wallets.reduce((s, w) => s + w.configured, 0);
  return {
    ...stats,
    fee: { configured, target: configured, achieved: 0, gap: 0, totalWork: stats.fee.totalWork, wallets },
  };
}
