/**
 * Local receivers for the alert channels that speak HTTP: a webhook endpoint that keeps each body
 * with its signature header, and a Telegram-style bot API that keeps each sendMessage call. Both
 * listen on 127.0.0.1 (a given port, so that a test can bring one up where a down one was).
 */
import type { Server } from "bun";

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

export class WebhookReceiver {
  private constructor(
    private readonly server: Server<undefined>,
    readonly received: WebhookDelivery[],
  ) {}

  static start(port = 0): WebhookReceiver {
    const received: WebhookDelivery[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      async fetch(req) {
        const body = await req.text();
        received.push({
          body,
          signature: req.headers.get("x-pithead-signature"),
          json: JSON.parse(body) as WebhookDelivery["json"],
        });
        return new Response("ok");
      },
    });
    return new WebhookReceiver(server, received);
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}/hook`;
  }

  stop(): void {
    void this.server.stop(true);
  }
}

export interface BotCall {
  token: string;
  chatId: string;
  text: string;
}

export class BotApiReceiver {
  private constructor(
    private readonly server: Server<undefined>,
    readonly received: BotCall[],
  ) {}

  static start(): BotApiReceiver {
    const received: BotCall[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const m = /^\/bot([^/]+)\/sendMessage$/.exec(new URL(req.url).pathname);
        if (req.method !== "POST" || m === null) {
          return Response.json({ ok: false, description: "Not Found" }, { status: 404 });
        }
        const body = (await req.json()) as { chat_id: string; text: string };
        received.push({ token: m[1] as string, chatId: body.chat_id, text: body.text });
        return Response.json({ ok: true, result: { message_id: received.length } });
      },
    });
    return new BotApiReceiver(server, received);
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  stop(): void {
    void this.server.stop(true);
  }
}
