/**
 * ServerChan (Server酱), the chat push service behind the spec's "push key": `POST
 * {base}/{SendKey}.send` with the form fields `title` and `desp` (Markdown), answered `{code: 0}`
 * when the message is taken. The key is part of the URL, so no error from here repeats the URL.
 */
import type { AlertMessage } from "../alert-message.ts";
import type { ServerChan } from "../push-targets.ts";

export const SERVERCHAN_API = "https://sctapi.ftqq.com";

/** The service's own address by the key's kind: Server酱³ keys (`sctp<uid>t…`) live on their uid's host. */
export function serverChanUrl(c: ServerChan): string {
  const key = encodeURIComponent(c.key);
  if (c.base_url !== "") return `${c.base_url.replace(/\/+$/, "")}/${key}.send`;
  const sc3 = /^sctp(\d+)t/.exec(c.key);
  return sc3 ? `https://${sc3[1]}.push.ft07.com/send/${key}.send` : `${SERVERCHAN_API}/${key}.send`;
}

/** The service takes a title of at most 32 characters; the whole text is in desp anyway. */
const TITLE_MAX = 32;
function shortTitle(title: string): string {
  const chars = [...title];
  return chars.length <= TITLE_MAX ? title : `${chars.slice(0, TITLE_MAX - 1).join("")}…`;
}

/** Each line its own paragraph, and a worker named rig_1_a is not set in italics. */
const markdown = (text: string): string =>
  text
    .split("\n")
    .map((line) => line.replace(/[\\`*_[\]<>]/g, "\\$&"))
    .join("\n\n");

interface ServiceReply {
  code?: number;
  message?: string;
}

export async function sendServerChan(c: ServerChan, message: AlertMessage, timeoutMs: number): Promise<void> {
  if (c.key === "") throw new Error("no ServerChan SendKey is set");
  let res: Response;
  try {
    res = await fetch(serverChanUrl(c), {
      method: "POST",
      body: new URLSearchParams({ title: shortTitle(message.title), desp: markdown(message.text) }),
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const name = e instanceof Error ? e.name : "error";
    throw new Error(`ServerChan not reachable (${name})`);
  }
  const reply = (await res.json().catch(() => ({}))) as ServiceReply;
  const said = reply.message ? `: ${reply.message}` : "";
  if (!res.ok) throw new Error(`ServerChan answered HTTP ${res.status}${said}`);
  if (reply.code !== 0) throw new Error(`ServerChan answered code ${reply.code ?? "(none)"}${said}`);
}
