/**
 * The generic webhook: the message as JSON, POSTed to the operator's URL with
 * `X-Pithead-Signature: sha256=<hex HMAC-SHA256 of the body>` under the shared secret, so the
 * receiver can tell the appliance's messages from anyone else's.
 */
import { createHmac } from "node:crypto";
import type { AlertMessage } from "../alert-message.ts";
import type { Channels } from "../channel-settings.ts";

export const SIGNATURE_HEADER = "X-Pithead-Signature";

export const signature = (secret: string, body: string): string =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

export async function sendWebhook(
  c: Channels["webhook"],
  message: AlertMessage,
  timeoutMs: number,
): Promise<void> {
  const body = JSON.stringify(message);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (c.secret !== "") headers[SIGNATURE_HEADER] = signature(c.secret, body);
  const res = await fetch(c.url, {
    method: "POST",
    headers,
    body,
    redirect: "error",
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`webhook answered HTTP ${res.status}`);
}
