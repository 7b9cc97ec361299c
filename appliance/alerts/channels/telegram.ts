/**
 * A Telegram-style bot API: `POST {base}/bot{token}/sendMessage` with `{chat_id, text}`, answered
 * `{ok: true}`. The token is part of the URL, so no error from here repeats the URL.
 */
import type { AlertMessage } from "../alert-message.ts";
import { type Channels, TELEGRAM_API } from "../channel-settings.ts";

/** Telegram refuses a message longer than 4,096 characters; a pool outage on many ports can make one. */
const MAX_TEXT = 4096;
const fit = (text: string): string => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 2)}\n…`);

interface BotReply {
  ok?: boolean;
  description?: string;
}

export async function sendTelegram(
  c: Channels["telegram"],
  message: AlertMessage,
  timeoutMs: number,
): Promise<void> {
  const base = (c.base_url || TELEGRAM_API).replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetch(`${base}/bot${c.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: c.chat_id, text: fit(message.text), disable_web_page_preview: true }),
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const name = e instanceof Error ? e.name : "error";
    throw new Error(`bot API not reachable (${name})`);
  }
  const reply = (await res.json().catch(() => ({}))) as BotReply;
  if (!res.ok || reply.ok !== true) {
    throw new Error(
      `bot API answered HTTP ${res.status}${reply.description ? `: ${reply.description}` : ""}`,
    );
  }
}
