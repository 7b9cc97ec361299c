import { afterAll, expect, test } from "bun:test";
import { testMessage } from "../../appliance/alerts/alert-message.ts";
import { sendTelegram } from "../../appliance/alerts/channels/telegram.ts";
import { BotApiReceiver } from "../support/alerts/http-receivers.ts";

const bot = BotApiReceiver.start();
afterAll(() => bot.stop());

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
