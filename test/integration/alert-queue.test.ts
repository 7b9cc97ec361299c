import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { BotApiReceiver, WebhookReceiver } from "../support/alerts/http-receivers.ts";
import { QUIET_RULES as QUIET } from "../support/alerts/rules.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance, tempDir } from "../support/appliance.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(120_000);

const TIMING = { tickMs: 100, retryMs: 100, retryMaxMs: 300 };
const open: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
});

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface History {
  items: { kind: string; state: string; text: string }[];
  queue: { pending: number; last_error: string };
}

describe("the alert queue and the rules without miners", () => {
  test("an alert queued while its receiver is down is delivered after a restart", async () => {
    const dir = tempDir();
    const hookPort = freePort();
    const first = await startTestAppliance(dir, true, { alertTiming: TIMING });
    const secret = "restart-secret";
    await first.client.post("/api/warning/channels", {
      webhook: { enabled: true, url: `http://127.0.0.1:${hookPort}/hook`, secret },
    });
    // the built-in certificate expires in years; any certificate is "expiring" within 100 years
    await first.client.post("/api/warning/setting", { ...QUIET, cert_days: 36_500 });
    await until(() => {
      const q = first.app.ctx.alerts.queue();
      return q.count === 1 && q.lastError !== "";
    });
    await first.close(true);

    const hook = WebhookReceiver.start(hookPort);
    open.push({ close: () => hook.stop() });
    const second = await startTestAppliance(dir, true, { alertTiming: TIMING });
    open.push(second);
    await until(() => hook.received.length > 0);
    const [m] = hook.received;
    expect(m?.json.text).toMatch(/^The TLS certificate expires on \d{4}-\d\d-\d\d \(\d+ days left\)$/);
    expect(m?.signature).toBe(
      `sha256=${createHmac("sha256", secret)
        .update(m?.body ?? "")
        .digest("hex")}`,
    );
    await until(() => second.app.ctx.alerts.queue().count === 0);
    // the episode was taken over, not fired again: one message, one firing row
    const h = await second.client.get<History>("/api/warning/history");
    expect(h.body.items.map((a) => `${a.kind} ${a.state}`)).toEqual(["cert_expiry firing"]);
    await second.client.post("/api/warning/setting", { ...QUIET, cert_days: 1 });
    await until(() => hook.received.length > 1);
    expect(hook.received[1]?.json.text).toBe("The TLS certificate was renewed");
    expect(hook.received).toHaveLength(2);
  });

  test("a pool failover and fail-back, and a nearly full disk, reach the bot", async () => {
    const main = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    const standby = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    const bot = BotApiReceiver.start();
    open.push({ close: () => main.stop() }, { close: () => standby.stop() }, { close: () => bot.stop() });
    const t: TestAppliance = await startTestAppliance(undefined, true, { alertTiming: TIMING });
    open.push(t);
    await t.client.post("/api/warning/channels", {
      telegram: { enabled: true, base_url: bot.url, token: "1:x", chat_id: "42" },
    });
    await t.client.post("/api/warning/setting", { ...QUIET, pool_failover: true, disk_percent: 1 });
    const port = freePort();
    await t.client.post(
      "/api/port/new",
      portBody({ port, status: 1, pool_address: main.address, pool_address2: standby.address }),
    );
    await until(() => bot.received.some((c) => c.text.startsWith("Disk ")));
    expect(bot.received.find((c) => c.text.startsWith("Disk "))?.text).toMatch(
      /^Disk \d+% full \(.+ free\)$/,
    );
    const miner = TestMiner.start({
      port,
      user: "wal.rig",
      hashesPerSecond: 500,
      maxShares: 1e7,
      maxMs: 100_000,
    });
    open.push({ close: () => miner.stop() });
    await until(() => main.accepted > 0);
    const mainPort = main.port;
    const mainAddress = main.address;
    main.stop();
    const failover = new RegExp(
      `^Port ${port}: main pool tcp://${esc(mainAddress)} failed \\(.+\\); mining on the standby pool tcp://${esc(standby.address)}$`,
    );
    await until(() => bot.received.some((c) => failover.test(c.text)));
    main.listen(mainPort);
    await until(() => bot.received.some((c) => c.text.endsWith("the standby pool is left")));
    expect(bot.received.at(-1)?.text).toBe(
      `Port ${port}: main pool tcp://${mainAddress} is back; the standby pool is left`,
    );
  });
});
