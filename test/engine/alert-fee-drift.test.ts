import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import type { AlertChange } from "../../appliance/alerts/alert-message.ts";
import { AlertEvaluator } from "../../appliance/alerts/evaluator.ts";
import { FeeDriftRule } from "../../appliance/alerts/fee-drift-rule.ts";
import { alertRulesSchema } from "../../appliance/alerts/rule-settings.ts";
import type { AlertSources } from "../../appliance/alerts/sources.ts";
import { AlertHistoryStore } from "../../appliance/store/alert-history.ts";
import { openDatabase } from "../../appliance/store/db.ts";
import { tempDir } from "../support/appliance.ts";
import { feeWallet, makeEngine, makePort, testCertificate, until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

test("a fee pool that cannot be reached leaves the fee behind its target: the drift alert fires, once", async () => {
  const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  const t = makeEngine();
  const dir = tempDir();
  const db = openDatabase(dir);
  cleanup.push(
    () => pool.stop(),
    () => t.engine.shutdown(),
    () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  );
  // nothing listens on port 1: every miner stays on the main pool and the fee achieved stays 0
  const port = makePort({
    pool_address: pool.address,
    wallets: [feeWallet(1, "feeaddr", "127.0.0.1:1", 0.2)],
  });
  const listen = await t.start(port);
  const miner = TestMiner.start({ port: listen, user: "wal.rig", maxShares: 1_000_000, maxMs: 60_000 });
  cleanup.push(() => miner.stop());
  await until(() => t.engine.live.portStats(port.id).fee.totalWork > 0);

  const sources: AlertSources = {
    registry: t.engine.registry,
    runningPorts: () => [{ id: port.id, port: listen, name: port.name }],
    portStats: (id) => t.engine.live.portStats(id),
    dataDir: dir,
    certificatePem: () => testCertificate().cert,
  };
  const told: AlertChange[][] = [];
  const evaluator = new AlertEvaluator(
    new AlertHistoryStore(db),
    [new FeeDriftRule(sources)],
    sources.runningPorts,
    (changes) => told.push(changes),
    (m) => {
      throw new Error(m);
    },
  );
  const rules = alertRulesSchema.parse({ fee_drift_pp: 5 });
  evaluator.tick(Date.now(), rules);
  evaluator.tick(Date.now(), rules);
  expect(told).toHaveLength(1);
  expect(told[0]?.map((c) => [c.kind, c.state, c.vars])).toEqual([
    ["fee_drift", "firing", { port: listen, achieved: "0.00", target: "20.00" }],
  ]);
  // a threshold the gap stays under closes the episode with a notice
  evaluator.tick(Date.now(), { ...rules, fee_drift_pp: 30 });
  expect(told[1]?.map((c) => [c.kind, c.state])).toEqual([["fee_drift", "resolved"]]);
});
