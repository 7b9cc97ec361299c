/**
 * A JSON-RPC relay between the appliance and litecoind that can stop a payout at a chosen instant,
 * so a test can kill the appliance there without any hook in the appliance itself:
 * - "pass": every call goes through;
 * - "hold": sendmany is not passed on and never answered (the payout is pending and debited, nothing
 *   was sent);
 * - "swallow": sendmany goes to the daemon, which sends, and its answer (the txid) is kept from the
 *   appliance (the transaction exists, the appliance never learns its id).
 * Each sendmany that reaches the relay is reported with its comment, and its txid when the daemon sent.
 */
import type { Server } from "bun";

export type RelayMode = "pass" | "hold" | "swallow";

export interface SendmanySeen {
  mode: RelayMode;
  comment: string;
  amounts: Record<string, number>;
  txid: string | null;
}

export class RpcRelay {
  mode: RelayMode = "pass";
  readonly sendmany: SendmanySeen[] = [];
  private readonly server: Server<undefined>;

  constructor(private readonly target: string) {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      // a held call stays open until the appliance is killed
      idleTimeout: 0,
      fetch: (req) => this.relay(req),
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}/`;
  }

  stop(): void {
    this.server.stop(true);
  }

  private async relay(req: Request): Promise<Response> {
    const body = await req.text();
    const call = JSON.parse(body) as { method: string; params: unknown[] };
    const mode = this.mode;
    const forward = () =>
      fetch(this.target, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: req.headers.get("authorization") ?? "",
        },
        body,
      });
    if (call.method !== "sendmany" || mode === "pass") {
      const res = await forward();
      const text = await res.text();
      if (call.method === "sendmany") this.seen(call, mode, (JSON.parse(text) as { result: string }).result);
      return new Response(text, { status: res.status, headers: { "content-type": "application/json" } });
    }
    if (mode === "swallow") {
      const text = await (await forward()).text();
      this.seen(call, mode, (JSON.parse(text) as { result: string }).result);
    } else this.seen(call, mode, null);
    // never answered: the appliance waits until it is killed
    return new Promise<Response>(() => {});
  }

  private seen(call: { params: unknown[] }, mode: RelayMode, txid: string | null): void {
    this.sendmany.push({
      mode,
      amounts: call.params[1] as Record<string, number>,
      comment: String(call.params[3]),
      txid,
    });
  }
}
