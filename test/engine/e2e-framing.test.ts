import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { feeWallet, makeEngine, makePort, occupySlots, until } from "../support/stratum/port-fixture.ts";
import type { RawClient } from "../support/stratum/raw-client.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { type AcceptedShare, TestPool } from "../support/stratum/test-pool.ts";

// End-to-end runs over real sockets; bounded by the miners' own limits, not by wall time.
setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * About one sha256d hash in 43 meets difficulty 1e-8 (0xFFFF / (1e-8 · 2^48)), so the miner really
 * searches, and a coinbase built with misplaced bytes is rejected as low difficulty almost always.
 */
const DIFFICULTY = 1e-8;
/** Upstream extranonce2 of 8 bytes: the proxy sends slot (1) ‖ the miner's extranonce2 (3) ‖ pad (4). */
const EN2_SIZE = 8;
const PAD_HEX = (EN2_SIZE - 4) * 2;

const slotOf = (s: AcceptedShare): string => s.extranonce2.slice(0, 2);
const padOf = (s: AcceptedShare): string => s.extranonce2.slice(-PAD_HEX);

async function pool(seen: AcceptedShare[]): Promise<TestPool> {
  const p = await TestPool.start({
    difficulty: DIFFICULTY,
    extranonce2Size: EN2_SIZE,
    // one job per block: a miner given this job again gets a re-issue with a new pad generation
    jobIntervalMs: 0,
    onAccepted: (s) => seen.push(s),
  });
  cleanup.push(() => p.stop());
  return p;
}

function engine() {
  const t = makeEngine();
  cleanup.push(() => t.engine.shutdown());
  return t;
}

const closeAll = (clients: RawClient[]) => () => {
  for (const c of clients) c.close();
};

describe("re-framing with a non-zero slot and pad, checked by the pool's own hashing", () => {
  test("a single miner on slot 03: every share goes up as 03 ‖ miner extranonce2 ‖ pad and is accepted", async () => {
    const seen: AcceptedShare[] = [];
    const a = await pool(seen);
    const t = engine();
    const port = makePort({ pool_address: a.address });
    const listen = await t.start(port);
    cleanup.push(closeAll(await occupySlots(t, port, listen, 3)));
    const r = await TestMiner.start({ port: listen, user: "wal.rig", versionRolling: true, maxShares: 30 })
      .done;
    // the proxy gives a re-framed miner its slot as a 1-byte extranonce1
    expect(r.extranonce1).toBe("03");
    expect(r.extranonce2Size).toBe(3);
    expect(r.rejected.size).toBe(0);
    expect(r.accepted).toBe(30);
    expect(a.accepted).toBe(30);
    expect(a.lowDifficultyRejects).toBe(0);
    expect(seen.length).toBe(30);
    for (const s of seen) {
      expect(s.extranonce2.length).toBe(EN2_SIZE * 2);
      expect(slotOf(s)).toBe("03");
    }
  });

  test("back from a fee visit the miner gets a re-issue with a non-zero pad; both pools accept every share", async () => {
    const mainSeen: AcceptedShare[] = [];
    const feeSeen: AcceptedShare[] = [];
    const a = await pool(mainSeen);
    const b = await pool(feeSeen);
    const t = engine();
    const port = makePort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.5)] });
    const listen = await t.start(port);
    cleanup.push(closeAll(await occupySlots(t, port, listen, 5)));
    const miner = TestMiner.start({ port: listen, user: "wal.rig", versionRolling: true });
    cleanup.push(() => miner.stop());
    // the fee scheduler sends the miner to the fee pool, so it leaves the main pool's only job
    await until(() => feeSeen.length > 0);
    const mainBefore = mainSeen.length;
    // Removing the wallet sends it back to that main job, which it already mined: the proxy must
    // re-issue it with a fresh coinbase, i.e. the next pad generation (lane.ts freshJob).
    await t.engine.apply({ ...port, wallets: [] });
    await until(() => mainSeen.length >= mainBefore + 20);
    const r = await miner.finish();
    expect(r.extranonce1).toBe("05");
    expect(r.disconnects).toBe(0);
    // one main session throughout: the shares after the move back are on the job the miner had
    expect(a.connectionsOpened).toBe(1);
    expect(r.rejected.size).toBe(0);
    expect(a.accepted + b.accepted).toBe(r.accepted);
    expect(a.rejects.size + b.rejects.size).toBe(0);
    // on both sources the slot led the extranonce2
    for (const s of [...mainSeen, ...feeSeen]) expect(slotOf(s)).toBe("05");
    const padded = mainSeen.slice(mainBefore).filter((s) => /[^0]/.test(padOf(s)));
    expect(padded.length).toBeGreaterThan(0);
  });
});
