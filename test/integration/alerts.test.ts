import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac, X509Certificate } from "node:crypto";
import type { AlertTiming } from "../../appliance/alerts/alert-service.ts";
import { makeSelfSigned } from "../../appliance/ops/certificate.ts";
import {
  BotApiReceiver,
  SERVERCHAN_TAKEN,
  ServerChanReceiver,
  WebhookReceiver,
} from "../support/alerts/http-receivers.ts";
import { QUIET_RULES } from "../support/alerts/rules.ts";
import { SmtpReceiver } from "../support/alerts/smtp-receiver.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { TestMiner, type TestMinerOptions } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

// Real sockets throughout: a hashing miner, the proxy port, a test pool, and the four receivers.
setDefaultTimeout(120_000);

const SECRET = "hook-secret-42";
const TOKEN = "123456:bot-token";
const SENDKEY = "SCT4242TkeyOfTheFarm";
const TIMING: Partial<AlertTiming> = {
  tickMs: 100,
  recentMs: 3_000,
  baselineMs: 6_000,
  burstMs: 5_000,
  retryMs: 100,
  retryMaxMs: 500,
};

let t: TestAppliance;
let pool: TestPool;
let hook: WebhookReceiver;
let bot: BotApiReceiver;
let smtp: SmtpReceiver;
let sc: ServerChanReceiver;
const miners: TestMiner[] = [];

/** Every rule off, ServerChan's key and address on: each test turns on what it is about. */
const quiet = () => ({ ...QUIET_RULES, push_key: SENDKEY, push_url: sc.url });

const signed = (body: string) => `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;

function channels(hookUrl: string) {
  return {
    webhook: { enabled: true, url: hookUrl, secret: SECRET },
    telegram: { enabled: true, base_url: bot.url, token: TOKEN, chat_id: "-1001" },
    email: {
      enabled: true,
      host: "127.0.0.1",
      port: smtp.port,
      starttls: false,
      user: "alerts@farm.example",
      password: "smtp-pass",
      from: "pithead@farm.example",
      to: "ops@farm.example, night@farm.example",
    },
  };
}

async function runningPort(name: string): Promise<number> {
  const port = freePort();
  const res = await t.client.post(
    "/api/port/new",
    portBody({ port, name, status: 1, pool_address: pool.address }),
  );
  expect(res.status).toBe(200);
  return port;
}

function mine(opts: TestMinerOptions): TestMiner {
  // the options object stays the miner's own, so that a test can change its hashrate while it runs
  opts.maxShares ??= 10_000_000;
  opts.maxMs ??= 110_000;
  const m = TestMiner.start(opts);
  miners.push(m);
  return m;
}

/** Waits until all four receivers hold a message whose text passes `match`; returns their texts. */
async function everywhere(
  match: (text: string) => boolean,
): Promise<{ hook: string; bot: string; mail: string; subject: string; push: string }> {
  await until(
    () =>
      hook.received.some((m) => match(m.json.text)) &&
      bot.received.some((m) => match(m.text)) &&
      smtp.received.some((m) => match(m.text)) &&
      sc.received.some((m) => match(m.text)),
    20,
  );
  return {
    hook: hook.received.find((m) => match(m.json.text))?.json.text ?? "",
    bot: bot.received.find((m) => match(m.text))?.text ?? "",
    mail: smtp.received.find((m) => match(m.text))?.text ?? "",
    subject: smtp.received.find((m) => match(m.text))?.subject ?? "",
    push: sc.received.find((m) => match(m.text))?.text ?? "",
  };
}

beforeAll(async () => {
  pool = await TestPool.start({ difficulty: 5e-9, extranonce2Size: 8 });
  hook = WebhookReceiver.start();
  bot = BotApiReceiver.start();
  smtp = await SmtpReceiver.start();
  sc = ServerChanReceiver.start();
  t = await startTestAppliance(undefined, true, { alertTiming: TIMING });
  expect((await t.client.post("/api/warning/channels", channels(hook.url))).status).toBe(200);
});

afterAll(async () => {
  for (const m of miners) m.stop();
  await t.close();
  pool.stop();
  hook.stop();
  bot.stop();
  smtp.stop();
  sc.stop();
});

describe("alerts pushed to a webhook, a bot API, SMTP and ServerChan", () => {
  test("a stopped miner and a halved one: offline and hashrate drop, then recovery, in each language", async () => {
    const offPort = await runningPort("offline");
    const dropPort = await runningPort("drop");
    const rigA = mine({ port: offPort, user: "walA.rigA", hashesPerSecond: 2_000 });
    const halved: TestMinerOptions = { port: dropPort, user: "walB.rigB", hashesPerSecond: 4_000 };
    mine(halved);
    await until(() => rigA.report.accepted > 20 && pool.accepted > 200);
    await t.client.post("/api/warning/setting", {
      ...quiet(),
      device_offline: true,
      offline_grace_s: 1,
      hashrate_drop: 30,
      lang: "ru",
    });
    // the drop rule compares two windows of work the port has really done: give it both
    await Bun.sleep((TIMING.recentMs ?? 0) + (TIMING.baselineMs ?? 0) + 500);
    rigA.stop();
    halved.hashesPerSecond = 2_000;

    const offline = await everywhere((s) => s.includes("walA.rigA") && s.includes("не в сети"));
    expect(offline.hook).toContain(`на порту ${offPort}`);
    expect(offline.bot).toBe(offline.hook);
    expect(offline.mail).toBe(offline.hook);
    expect(offline.push).toBe(offline.hook);
    const drop = await everywhere((s) => s.includes(`Порт ${dropPort}: хешрейт упал`));
    expect(drop.hook).toMatch(/упал на \d+%/);
    for (const m of hook.received) expect(m.signature).toBe(signed(m.body));
    expect(bot.received.every((c) => c.token === TOKEN && c.chatId === "-1001")).toBe(true);
    expect(sc.received.every((p) => p.key === SENDKEY && [...p.title].length <= 32)).toBe(true);
    const mail = smtp.received[0];
    expect(mail?.from).toBe("pithead@farm.example");
    expect(mail?.to).toEqual(["ops@farm.example", "night@farm.example"]);
    expect(mail?.login).toBe("alerts@farm.example\0smtp-pass");

    // one episode, one message: the device stays offline and nothing more is said about it
    const history = await t.client.get<{
      items: { kind: string; state: string; vars: { device: string } }[];
    }>("/api/warning/history");
    const episodes = history.body.items.filter(
      (a) => a.kind === "device_offline" && a.vars.device === "walA.rigA",
    );
    expect(episodes.map((a) => a.state)).toEqual(["firing"]);

    await t.client.post("/api/warning/setting", {
      ...quiet(),
      device_offline: true,
      offline_grace_s: 1,
      lang: "zh-CN",
    });
    const back = mine({ port: offPort, user: "walA.rigA", hashesPerSecond: 2_000 });
    const online = await everywhere((s) => s.includes("walA.rigA") && s.includes("已恢复在线"));
    expect(online.bot).toContain(`端口 ${offPort}`);

    await t.client.post("/api/warning/setting", {
      ...quiet(),
      device_offline: true,
      offline_grace_s: 1,
      lang: "en",
    });
    back.stop();
    const again = await everywhere((s) => s === `Device walA.rigA on port ${offPort} is offline (127.0.0.1)`);
    expect(again.subject).toBe(again.hook);
    const rigAStates = hook.received.flatMap((m) =>
      m.json.alerts.filter((a) => a.text.includes("walA.rigA")).map((a) => a.state),
    );
    expect(rigAStates).toEqual(["firing", "resolved", "firing"]);
  });

  test("20 miners dropped within a second make one message; each is reported back", async () => {
    await t.client.post("/api/warning/setting", {
      ...quiet(),
      device_offline: true,
      offline_grace_s: 1,
      lang: "en",
    });
    const port = await runningPort("switch");
    const rigs = Array.from({ length: 20 }, (_, i) =>
      mine({ port, user: `farm.rig${i}`, hashesPerSecond: 300 }),
    );
    await until(() => rigs.every((m) => m.report.accepted > 0));
    const before = hook.received.length;
    // a switch's rigs do not drop in the same millisecond: the second half goes 600 ms after the
    // first, past several evaluations, and still joins the first half's message
    for (const m of rigs.slice(0, 10)) m.stop();
    await Bun.sleep(600);
    for (const m of rigs.slice(10)) m.stop();
    const grouped = await everywhere((s) => s.startsWith("20 devices offline:"));
    expect(grouped.bot).toContain("and 10 more");
    const back = Array.from({ length: 20 }, (_, i) =>
      mine({ port, user: `farm.rig${i}`, hashesPerSecond: 300 }),
    );
    // they come back as each reconnects (one message per evaluation that saw some return)
    const about = () => hook.received.slice(before).filter((m) => m.json.text.includes("farm.rig"));
    const states = () => about().flatMap((m) => m.json.alerts.map((a) => a.state));
    await until(() => states().filter((s) => s === "resolved").length === 20);
    const down = about().filter((m) => m.json.alerts.some((a) => a.state === "firing"));
    expect(down.map((m) => [m.json.title, m.json.alerts.length])).toEqual([[grouped.hook, 20]]);
    expect(states()).toHaveLength(40);
    for (const m of back) m.stop();
  });

  test("the test-send button reaches every enabled channel, in the chosen language", async () => {
    await t.client.post("/api/warning/setting", { ...quiet(), lang: "ru" });
    const res = await t.client.post<{ results: { channel: string; ok: boolean }[] }>("/api/warning/test", {});
    expect(res.body.results).toEqual([
      { channel: "webhook", ok: true },
      { channel: "telegram", ok: true },
      { channel: "email", ok: true },
      { channel: "serverchan", ok: true },
    ]);
    await everywhere((s) => s.startsWith("Тестовое сообщение от Pithead"));
    const one = await t.client.post<{ results: { channel: string; ok: boolean; error?: string }[] }>(
      "/api/warning/test",
      { channel: "email" },
    );
    expect(one.body.results).toEqual([{ channel: "email", ok: true }]);
    // STARTTLS asked of a server that does not offer it: refused, never sent in clear
    const stored = channels(hook.url);
    await t.client.post("/api/warning/channels", { ...stored, email: { ...stored.email, starttls: true } });
    const clear = await t.client.post<{ results: { channel: string; ok: boolean; error?: string }[] }>(
      "/api/warning/test",
      { channel: "email" },
    );
    expect(clear.body.results).toEqual([
      { channel: "email", ok: false, error: "the mail server does not offer STARTTLS" },
    ]);
    await t.client.post("/api/warning/channels", stored);
  });

  test("ServerChan: the test button shows a refusal; a real alert it refused is retried until taken", async () => {
    type Results = { results: { channel: string; ok: boolean; error?: string }[] };
    const pushTest = async () =>
      (await t.client.post<Results>("/api/warning/test", { channel: "serverchan" })).body.results;
    await t.client.post("/api/warning/setting", { ...quiet(), lang: "en" });
    // the key is a secret: read back masked, and the masked form saved again keeps it
    const read = await t.client.get<{ push_key: string }>("/api/warning/setting");
    expect(read.body.push_key).toBe("********");
    await t.client.post("/api/warning/setting", read.body);
    expect(await pushTest()).toEqual([{ channel: "serverchan", ok: true }]);
    // the service takes a title of 32 characters at most; the whole text is in desp
    expect(sc.received.at(-1)?.key).toBe(SENDKEY);
    expect(sc.received.at(-1)?.title).toMatch(/^Test message from Pithead [0-9a-f]{5}…$/);
    expect(sc.received.at(-1)?.text).toMatch(
      /^Test message from Pithead [0-9a-f-]{36}: alerts reach this channel$/,
    );

    sc.answer = { status: 200, body: { code: 40001, message: "bad pushkey" } };
    expect(await pushTest()).toEqual([
      { channel: "serverchan", ok: false, error: "ServerChan answered code 40001: bad pushkey" },
    ]);
    sc.answer = { status: 500, body: { message: "upstream down" } };
    expect(await pushTest()).toEqual([
      { channel: "serverchan", ok: false, error: "ServerChan answered HTTP 500: upstream down" },
    ]);

    // any certificate expires within 100 years: the rule fires on the next evaluation
    sc.answer = { status: 200, body: { code: 40001, message: "bad pushkey" } };
    const taken = sc.received.length;
    await t.client.post("/api/warning/setting", { ...quiet(), cert_days: 36_500, lang: "en" });
    const queue = () => t.app.ctx.alerts.queue();
    await until(() => queue().lastError === "ServerChan answered code 40001: bad pushkey");
    expect(sc.received).toHaveLength(taken);
    sc.answer = SERVERCHAN_TAKEN;
    await until(() => queue().count === 0);
    expect(sc.received.slice(taken).map((p) => p.text)).toEqual([
      expect.stringMatching(/^The TLS certificate expires on \d{4}-\d\d-\d\d \(\d+ days left\)$/),
    ]);
    await t.client.post("/api/warning/setting", quiet());
  });

  test("STARTTLS to a relay with a self-signed certificate: refused until it is pinned, then the login and the mail go over TLS only", async () => {
    const pair = makeSelfSigned("relay.lan");
    const fingerprint = new X509Certificate(pair.cert).fingerprint256;
    const relay = await SmtpReceiver.start(pair);
    await t.client.post("/api/warning/setting", { ...quiet(), lang: "en" });
    const stored = channels(hook.url);
    type Results = { results: { channel: string; ok: boolean; error?: string }[] };
    const testWith = async (tls_fingerprint: string) => {
      const email = { ...stored.email, port: relay.port, starttls: true, tls_fingerprint };
      expect((await t.client.post("/api/warning/channels", { ...stored, email })).status).toBe(200);
      return (await t.client.post<Results>("/api/warning/test", { channel: "email" })).body.results;
    };
    try {
      // the CAs do not know it: refused once the handshake shows it, naming it for the operator
      const untrusted = await testWith("");
      expect(untrusted[0]?.ok).toBe(false);
      expect(untrusted[0]?.error).toStartWith("the mail server's certificate is not trusted");
      expect(untrusted[0]?.error).toEndWith(`it presented ${fingerprint}`);
      const other = new X509Certificate(makeSelfSigned("elsewhere").cert).fingerprint256;
      expect(await testWith(other)).toEqual([
        {
          channel: "email",
          ok: false,
          error: `the mail server presented certificate ${fingerprint}, not the pinned one`,
        },
      ]);
      // nothing was said over either refused connection after STARTTLS, least of all the login
      expect(relay.commands).toEqual(
        ["EHLO pithead", "STARTTLS", "EHLO pithead", "STARTTLS"].map((line) => ({ line, tls: false })),
      );
      expect(await testWith(fingerprint.toLowerCase())).toEqual([{ channel: "email", ok: true }]);
      const read = await t.client.get<{ email: { tls_fingerprint: string } }>("/api/warning/channels");
      expect(read.body.email.tls_fingerprint).toBe(fingerprint);
      expect(relay.received).toHaveLength(1);
      expect(relay.received[0]).toMatchObject({ tls: true, login: "alerts@farm.example\0smtp-pass" });
      expect(relay.received[0]?.text).toMatch(/^Test message from Pithead /);
      const session = relay.commands.slice(4);
      expect(session.filter((c) => !c.tls).map((c) => c.line)).toEqual(["EHLO pithead", "STARTTLS"]);
      expect(session.filter((c) => c.tls).map((c) => c.line.split(" ")[0])).toEqual([
        "EHLO",
        "AUTH",
        "MAIL",
        "RCPT",
        "RCPT",
        "DATA",
        "QUIT",
      ]);
    } finally {
      relay.stop();
      await t.client.post("/api/warning/channels", stored);
    }
  });
});
