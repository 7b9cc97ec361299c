/**
 * Email: the message as a plain-text UTF-8 mail (RFC 5322, base64 body, RFC 2047 subject) sent
 * through the operator's SMTP server.
 */
import { randomUUID } from "node:crypto";
import type { AlertMessage } from "../alert-message.ts";
import type { Channels } from "../channel-settings.ts";
import { sendMail } from "./smtp-client.ts";

const encodedWord = (s: string): string =>
  /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, "utf8").toString("base64")}?=`;

export const recipients = (to: string): string[] =>
  to
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");

export function mailText(c: Channels["email"], message: AlertMessage): string {
  const body = Buffer.from(message.text, "utf8").toString("base64").replace(/.{76}/g, "$&\r\n");
  const domain = c.from.split("@")[1] ?? "pithead.local";
  return [
    `From: ${c.from}`,
    `To: ${recipients(c.to).join(", ")}`,
    `Subject: ${encodedWord(message.title)}`,
    `Date: ${new Date(message.at).toUTCString()}`,
    `Message-ID: <${randomUUID()}@${domain}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    body,
  ].join("\r\n");
}

export function sendEmail(c: Channels["email"], message: AlertMessage, timeoutMs: number): Promise<void> {
  return sendMail(
    {
      host: c.host,
      port: c.port,
      starttls: c.starttls,
      fingerprint: c.tls_fingerprint,
      user: c.user,
      password: c.password,
      from: c.from,
      to: recipients(c.to),
      timeoutMs,
    },
    mailText(c, message),
  );
}
