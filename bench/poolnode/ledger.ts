/**
 * The pool node's ledger on a real SQLite file (the appliance's migrations, WAL, FULL sync): what the
 * share path pays per accepted share (ShareLog.append), what a flush of one batch costs on the pool's
 * thread, and the per-block work — recording a found block's round, crediting it when it matures (the
 * one sum over a window), pruning — with a window of WINDOW_SHARES shares from ADDRESSES addresses.
 * The credit is measured twice, as the stall it puts on the pool's event loop (the longest gap a 1 ms
 * timer sees, which is how long a share's answer would wait): summed on this thread, and as the pool
 * node does it, summed in a worker with its own connection and only written here; and so is
 * address/info's part of the current window for one address.
 *
 *   node_modules/.bin/bun bench/poolnode/ledger.ts [shares]
 */
import { rmSync } from "node:fs";
import { addressWindow, PoolLedger, PRUNE_SLICE } from "../../appliance/poolnode/accounting/ledger.ts";
import { ShareLog } from "../../appliance/poolnode/accounting/share-log.ts";
import { databaseBytes, openDatabase } from "../../appliance/store/db.ts";
import { PoolLedgerStore } from "../../appliance/store/poolnode-ledger.ts";
import { tempDir } from "../../test/support/appliance.ts";

const SHARES = Number(process.argv[2] ?? 500_000);
const ADDRESSES = 1000;
const BATCH = 5000;
const DIFFICULTY = 65_536;
const WINDOW_SHARES = 200_000;

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? 0;

const dir = tempDir("pithead-bench-ledger-");
const db = openDatabase(dir);
const store = new PoolLedgerStore(db);
const log = new ShareLog(store, { batch: Number.POSITIVE_INFINITY });
const workers = Array.from(
  { length: ADDRESSES },
  (_, i) => `ltc1qbenchaddress${String(i).padStart(6, "0")}.rig`,
);

let appendMs = 0;
const flushes: number[] = [];
for (let done = 0; done < SHARES; done += BATCH) {
  const t0 = performance.now();
  for (let i = 0; i < BATCH; i++)
    log.append(workers[(done + i) % ADDRESSES] as string, DIFFICULTY, 3_000_000, Date.now());
  appendMs += performance.now() - t0;
  const t1 = performance.now();
  log.flush();
  flushes.push(ms(t1));
}
const last = store.tip().id;
const rules = { window: WINDOW_SHARES * DIFFICULTY, fee: 0.01, poolAddress: "ltc1qpool" };
/**
 * three blocks found at the same share: one credited on this thread, one as the pool node does it,
 * and one given its window's sum to time the write alone
 */
const [inline, inWorker, writeOnly] = ["ab".repeat(32), "cd".repeat(32), "ef".repeat(32)];
const found = (hash: string) =>
  store.recordBlock(
    {
      hash,
      height: 3_000_000,
      found_at: 1,
      address: "a",
      worker: "a",
      reward: 625_000_000,
      verdict: null,
      last_share_id: last,
    },
    rules,
  );
let t = performance.now();
found(inline);
const recordMs = ms(t);
found(inWorker);
found(writeOnly);

/** The longest the event loop went without running a 1 ms timer while `work` ran, and its time. */
async function stall<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number; stall_ms: number }> {
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await Bun.sleep(20);
  longest = 0;
  last = performance.now();
  const t0 = performance.now();
  const value = await work();
  const took = ms(t0);
  await Bun.sleep(5);
  clearInterval(probe);
  return { value, ms: took, stall_ms: Math.round(longest * 100) / 100 };
}

const onThread = await stall(() => store.creditBlock(inline, Date.now()));
const ledger = new PoolLedger(
  store,
  () => rules,
  () => {},
);
const viaWorker = await stall(() => ledger.credit(inWorker));
const summed = store.windowWork(last, rules.window).work;
const written = await stall(() => store.creditBlock(writeOnly, Date.now(), summed));
// address/info's part of the window for one address: on this thread as it was, and as it is now
const someone = summed[0]?.address as string;
const lookupOnThread = await stall(() => store.windowWork(last, rules.window, someone).work[0]);
const lookupViaWorker = await stall(() => addressWindow(store, someone, rules.window));
if (lookupOnThread.value === undefined || lookupViaWorker.value.work !== lookupOnThread.value.work)
  throw new Error("the worker's window for one address differs from the one summed on this thread");
const credits = onThread.value;
const lines = (cs: typeof credits) => cs.map((c) => `${c.kind} ${c.address} ${c.amount} ${c.work}`).join();
if (lines(viaWorker.value) !== lines(credits))
  throw new Error("the worker's credit differs from the one summed on this thread");
// as the pool prunes: a slice per turn of the event loop
const slices: number[] = [];
let pruned = 0;
for (;;) {
  t = performance.now();
  const n = store.prune(rules.window, PRUNE_SLICE);
  slices.push(ms(t));
  pruned += n;
  if (n < PRUNE_SLICE) break;
}

const figures = {
  shares: SHARES,
  append_ns_per_share: Math.round((appendMs * 1e6) / SHARES),
  flush_batch: BATCH,
  flush_ms_p50: pct(flushes, 0.5),
  flush_ms_p99: pct(flushes, 0.99),
  flush_ms_max: Math.max(...flushes),
  record_block_ms: recordMs,
  credit_block_ms: onThread.ms,
  credit_stall_ms_on_thread: onThread.stall_ms,
  credit_block_ms_via_worker: viaWorker.ms,
  credit_stall_ms_via_worker: viaWorker.stall_ms,
  credit_write_ms: written.ms,
  address_window_stall_ms_on_thread: lookupOnThread.stall_ms,
  address_window_stall_ms_via_worker: lookupViaWorker.stall_ms,
  credit_lines: credits.length,
  prune_ms: Math.round(slices.reduce((a, b) => a + b, 0) * 10) / 10,
  prune_slice: PRUNE_SLICE,
  prune_slice_ms_max: Math.max(...slices),
  pruned_shares: pruned,
  // the file and its write-ahead log, after the prune (SQLite reuses the freed pages; it does not shrink)
  database_mb: Math.round(databaseBytes(dir) / 1e5) / 10,
};
console.log(JSON.stringify(figures, null, 2));
db.close();
rmSync(dir, { recursive: true, force: true });
