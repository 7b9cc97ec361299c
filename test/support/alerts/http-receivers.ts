/**
 * Local receivers for the alert channels that speak HTTP: a webhook endpoint that keeps each body
 * with its signature header, a Telegram-style bot API that keeps each sendMessage call, and a
 * ServerChan API that keeps each message it takes. All listen on 127.0.0.1 (a given port, so that a
 * test can bring one up where a down one was).
 */
import type { Server } from "bun";

class HttpReceiver<T> {
  readonly received: T[] = [];
  private readonly server: Server<undefined>;

  protected constructor(port: number, handle: (req: Request, received: T[]) => Promise<Response>) {
    this.server = Bun.serve({ hostname: "127.0.0.1", port, fetch: (req) => handle(req, this.received) });
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  stop(): void {
    void this.server.stop(true);
  }
}

export interface WebhookDelivery {
  /** the raw body, as the signature covers it */
  body: string;
  signature: string | null;
  json: {
    title: string;
    text: string;
    lang: string;
    alerts: { kind: string; state: string; text: string }[];
  };
}

export class WebhookReceiver extends HttpReceiver<WebhookDelivery> {
  static start(port = 0): WebhookReceiver {
    return new WebhookReceiver(port, async (req, received) => {
      const body = await req.text();
      received.push({
        body,
        signature: req.headers.get("x-pithead-signature"),
        json: JSON.parse(body) as WebhookDelivery["json"],
      });
      return new Response("ok");
    });
  }

  override get url(): string {
    return `${super.url}/hook`;
  }
}

export interface BotCall {
  token: string;
  chatId: string;
  text: string;
}

export class BotApiReceiver extends HttpReceiver<BotCall> {
  static start(): BotApiReceiver {
    return new BotApiReceiver(0, async (req, received) => {
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(new URL(req.url).pathname);
      if (req.method !== "POST" || m === null) {
        return Response.json({ ok: false, description: "Not Found" }, { status: 404 });
      }
      const body = (await req.json()) as { chat_id: string; text: string };
      received.push({ token: m[1] as string, chatId: body.chat_id, text: body.text });
      return Response.json({ ok: true, result: { message_id: received.length } });
    });
  }
}

export interface ServerChanPush {
  key: string;
  title: string;
  /** as sent: Markdown */
  desp: string;
  /** what a reader sees: one line per paragraph, Markdown escapes undone */
  text: string;
}

/** ServerChan's answer when it takes a message */
export const SERVERCHAN_TAKEN = { status: 200, body: { code: 0, message: "", data: { pushid: "1" } } };

export class ServerChanReceiver extends HttpReceiver<ServerChanPush> {
  /** how the next pushes are answered; anything but SERVERCHAN_TAKEN is not kept */
  answer: { status: number; body: unknown } = SERVERCHAN_TAKEN;

  static start(): ServerChanReceiver {
    const r: ServerChanReceiver = new ServerChanReceiver(0, async (req, received) => {
      const m = /^\/([^/]+)\.send$/.exec(new URL(req.url).pathname);
      if (req.method !== "POST" || m === null) {
        return Response.json({ code: 40400, message: "not found" }, { status: 404 });
      }
      const form = await req.formData();
      const desp = String(form.get("desp") ?? "");
      if (r.answer === SERVERCHAN_TAKEN) {
        received.push({
          key: decodeURIComponent(m[1] as string),
          title: String(form.get("title") ?? ""),
          desp,
          text: desp.split("\n\n").join("\n").replace(/\\(.)/g, "$1"),
        });
      }
      return Response.json(r.answer.body, { status: r.answer.status });
    });
    return r;
  }
}
