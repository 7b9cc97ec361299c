import { afterAll, expect, test } from "bun:test";
import { testMessage } from "../../appliance/alerts/alert-message.ts";
import { sendServerChan, serverChanUrl } from "../../appliance/alerts/channels/serverchan.ts";
import { sendTelegram } from "../../appliance/alerts/channels/telegram.ts";
import { BotApiReceiver, ServerChanReceiver } from "../support/alerts/http-receivers.ts";
import { freePort } from "../support/appliance.ts";

const bot = BotApiReceiver.start();
const sc = ServerChanReceiver.start();
afterAll(() => {
  bot.stop();
  sc.stop();
});

test("a message past the bot API's 4,096 characters is cut to fit, with a mark where it was cut", async () => {
  const long = { ...testMessage("en", Date.now(), "x"), text: "line of a pool outage\n".repeat(400) };
  await sendTelegram({ enabled: true, base_url: bot.url, token: "1:t", chat_id: "7" }, long, 5_000);
  expect(bot.received[0]?.text).toHaveLength(4096);
  expect(bot.received[0]?.text.endsWith("\n…")).toBe(true);
  expect(long.text.startsWith(bot.received[0]?.text.slice(0, -2) ?? "-")).toBe(true);
});

test("a bot API that refuses says why, and never repeats the token", async () => {
  const c = { enabled: true, base_url: `${bot.url}/nowhere`, token: "1:secret-token", chat_id: "7" };
  const error = await sendTelegram(c, testMessage("en", Date.now(), "x"), 5_000).then(
    () => "delivered",
    (e: Error) => e.message,
  );
  expect(error).toBe("bot API answered HTTP 404: Not Found");
});

test("ServerChan's own address follows the key's kind (Turbo or Server酱³), unless another is set", () => {
  const c = { enabled: true, base_url: "", key: "SCT1234TabcDEF" };
  expect(serverChanUrl(c)).toBe("https://sctapi.ftqq.com/SCT1234TabcDEF.send");
  expect(serverChanUrl({ ...c, key: "sctp5678tXYZ" })).toBe(
    "https://5678.push.ft07.com/send/sctp5678tXYZ.send",
  );
  expect(serverChanUrl({ ...c, base_url: "http://127.0.0.1:9/relay/" })).toBe(
    "http://127.0.0.1:9/relay/SCT1234TabcDEF.send",
  );
});

test("ServerChan gets each line as a Markdown paragraph with the marks in names escaped", async () => {
  const text = "Device farm.rig_1_a on port 3333 is offline (10.0.0.7)\nPort 3334: hashrate *halved*";
  const m = { ...testMessage("en", Date.now(), "x"), title: "2 alerts", text };
  await sendServerChan({ enabled: true, base_url: sc.url, key: "SCTkey" }, m, 5_000);
  expect(sc.received[0]).toMatchObject({ key: "SCTkey", title: "2 alerts", text });
  expect(sc.received[0]?.desp).toBe(
    "Device farm.rig\\_1\\_a on port 3333 is offline (10.0.0.7)\n\nPort 3334: hashrate \\*halved\\*",
  );
});

test("ServerChan unset or out of reach says so, and never repeats the key", async () => {
  const m = testMessage("en", Date.now(), "x");
  const error = (c: { base_url: string; key: string }) =>
    sendServerChan({ enabled: true, ...c }, m, 5_000).then(
      () => "delivered",
      (e: Error) => e.message,
    );
  expect(await error({ base_url: sc.url, key: "" })).toBe("no ServerChan SendKey is set");
  const down = await error({ base_url: `http://127.0.0.1:${freePort()}`, key: "SCTsecret-key" });
  expect(down).toStartWith("ServerChan not reachable (");
  expect(down).not.toContain("SCTsecret-key");
});
