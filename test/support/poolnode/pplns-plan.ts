/**
 * Shares submitted in a planned order, and the PPLNS credits that order must give. The truth here is
 * worked out from the plan alone — which address submitted each share, all at one difficulty — with
 * integer arithmetic, not with the appliance's window or split code.
 */
import { targetFor, targetFromBits } from "../stratum/share-check.ts";
import type { HandMiner } from "./hand-miner.ts";

/**
 * Submits one share per entry of `plan` (an address whose hand miner submits it), in order, each
 * answered before the next: all but the last meet only the share target, the last is a block.
 */
export async function submitPlan(
  miners: ReadonlyMap<string, HandMiner>,
  plan: readonly string[],
  difficulty: number,
): Promise<void> {
  const shareTarget = targetFor(difficulty, "scrypt");
  for (const [i, address] of plan.entries()) {
    const miner = miners.get(address);
    if (miner === undefined) throw new Error(`no miner for ${address}`);
    const networkTarget = targetFromBits(miner.job.nbits);
    const block = i === plan.length - 1;
    const extranonce2 = (0x100 + i).toString(16).padStart(8, "0");
    const nonce = miner.find(extranonce2, (v) =>
      block ? v <= networkTarget : v > networkTarget && v <= shareTarget,
    );
    const error = await miner.submit(extranonce2, nonce);
    if (error !== null) throw new Error(`share ${i} of ${address} refused: ${JSON.stringify(error)}`);
  }
}

/**
 * What each address is owed for a block found by the plan's last share: the window is the last
 * `windowShares` shares (a fraction cuts the oldest one), the miners' part is the reward less
 * `feePpm` millionths, each address gets its part of it rounded down, the pool the rest.
 */
export function pplnsTruth(
  plan: readonly string[],
  windowShares: number,
  reward: bigint,
  feePpm: bigint,
): { credits: Map<string, bigint>; fee: bigint } {
  // in halves of a share, so that a window of 4.5 shares stays in integers
  const HALVES = 2;
  if (!Number.isInteger(windowShares * HALVES)) throw new Error("window must be a multiple of half a share");
  let left = BigInt(windowShares * HALVES);
  const work = new Map<string, bigint>();
  for (let i = plan.length - 1; i >= 0 && left > 0n; i--) {
    const take = left < BigInt(HALVES) ? left : BigInt(HALVES);
    const address = plan[i] as string;
    work.set(address, (work.get(address) ?? 0n) + take);
    left -= take;
  }
  const total = [...work.values()].reduce((a, b) => a + b, 0n);
  const miners = (reward * (1_000_000n - feePpm)) / 1_000_000n;
  const credits = new Map([...work].map(([a, w]) => [a, (miners * w) / total]));
  const fee = reward - [...credits.values()].reduce((a, b) => a + b, 0n);
  return { credits, fee };
}
