/**
 * The merkle branch stratum sends: the sibling hashes on the coinbase's path to the root, bottom
 * up, in block byte order. The miner joins each on the right of its running hash (the coinbase is
 * the leftmost leaf), which is the engine's merkleRoot in stratum/bitcoin/pow.ts.
 */
import { sha256d } from "../../engine/stratum/bitcoin/pow.ts";
import { reverseHex } from "./serialize.ts";

/** `txids`: the template's transaction ids in display order, coinbase excluded. */
export function merkleBranch(txids: readonly string[]): string[] {
  const branch: string[] = [];
  // index 0 stands for the coinbase, whose hash the miner supplies; it is never read here
  let level: Buffer[] = [Buffer.alloc(0), ...txids.map((id) => Buffer.from(reverseHex(id), "hex"))];
  while (level.length > 1) {
    branch.push((level[1] as Buffer).toString("hex"));
    if (level.length % 2 === 1) level.push(level[level.length - 1] as Buffer);
    const next: Buffer[] = [Buffer.alloc(0)];
    for (let i = 2; i < level.length; i += 2)
      next.push(sha256d(Buffer.concat([level[i] as Buffer, level[i + 1] as Buffer])));
    level = next;
  }
  return branch;
}
