/**
 * Deduplicates strings that many upstream sessions receive identically (a pool sends the same
 * coinbase halves, prevhash and merkle branch to every session). Efficient mode holds one session
 * per miner, so without this each miner would keep its own copy of every job. Two generations keep
 * the table bounded without tracking use.
 */
const GENERATION = 4096;

let current = new Map<string, string>();
let previous = new Map<string, string>();

export function intern(s: string): string {
  const hit = current.get(s) ?? previous.get(s);
  if (hit !== undefined) {
    if (!current.has(s)) current.set(hit, hit);
    return hit;
  }
  if (current.size >= GENERATION) {
    previous = current;
    current = new Map();
  }
  current.set(s, s);
  return s;
}
