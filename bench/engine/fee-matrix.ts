/**
 * The fee matrix of the fee issue, run on the scheduler itself with simulated farms
 * (test/support/fee/fee-sim.ts: Poisson miners at a fixed hashrate, shares answered after 2 ms,
 * job switches after 5 ms, a fee pool that rejects 1 %). Each cell runs at least 100,000 shares and
 * at least ten minutes of simulated time (up to 2,000,000 shares). Pool and Efficient mode differ only in the upstream
 * sessions, not in the scheduler, so the matrix is mode-free; the socket-level figures are in
 * scenarios.ts (feeAccuracy). Run alone: `node_modules/.bin/bun bench/engine/fee-matrix.ts`.
 */
import { runFarm } from "../../test/support/fee/fee-sim.ts";

const MINERS = [200, 1000, 5000];
const RATES = [0.05, 0.2, 1, 10];
const FEE_DIFFICULTY = [0.5, 2];
const WALLETS: number[][] = [[0.02], Array.from({ length: 10 }, () => 0.002)];

export interface FeeCell {
  miners: number;
  sharesPerSecond: number;
  feeDifficulty: number;
  wallets: number;
  shares: number;
  errorPercentagePoints: number;
  firstFeeShareS: number;
  switchesPerDeviceHour: number;
}

export function feeMatrix(): FeeCell[] {
  const cells: FeeCell[] = [];
  for (const miners of MINERS)
    for (const sharesPerSecond of RATES)
      for (const feeDifficulty of FEE_DIFFICULTY)
        for (const ratios of WALLETS) {
          // ≥ 100,000 shares and ten simulated minutes, at most 2,000,000 shares (bounded run time)
          const shares = Math.max(100_000, Math.min(2_000_000, Math.ceil(miners * sharesPerSecond * 600)));
          const r = runFarm({ miners, sharesPerSecond, feeDifficulty, ratios, feeRejects: 0.01 }, shares);
          cells.push({
            miners,
            sharesPerSecond,
            feeDifficulty,
            wallets: ratios.length,
            shares: r.shares,
            errorPercentagePoints: Math.round((r.achieved - 0.02) * 100 * 1e4) / 1e4,
            firstFeeShareS: Math.round(r.firstFeeShareS * 10) / 10,
            switchesPerDeviceHour: Math.round(r.switchesPerDeviceHour * 10) / 10,
          });
        }
  return cells;
}

export function feeMatrixMarkdown(cells: readonly FeeCell[]): string {
  const rows = cells.map(
    (c) =>
      `| ${c.miners} | ${c.sharesPerSecond} | ${c.feeDifficulty}× | ${c.wallets} | ${c.shares} | ${c.errorPercentagePoints >= 0 ? "+" : ""}${c.errorPercentagePoints.toFixed(4)} | ${c.firstFeeShareS} | ${c.switchesPerDeviceHour} |`,
  );
  const worst = Math.max(...cells.map((c) => Math.abs(c.errorPercentagePoints)));
  return [
    "| miners | shares/s per miner | fee pool difficulty | wallets | shares | achieved − configured (pp) | first fee share (s) | switches per device-hour |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `worst cell: ${worst.toFixed(4)} pp; cells within ±0.05 pp: ${cells.filter((c) => Math.abs(c.errorPercentagePoints) <= 0.05).length} of ${cells.length}`,
  ].join("\n");
}

if (import.meta.main) {
  const t0 = performance.now();
  const cells = feeMatrix();
  console.log(feeMatrixMarkdown(cells));
  console.log(`(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}
