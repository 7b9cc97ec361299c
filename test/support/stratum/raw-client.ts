/** A bare line client for hostile-input tests: sends what it is told, records lines and the close. */
import type { Socket } from "bun";

export class RawClient {
  readonly lines: string[] = [];
  closed = false;
  private socket: Socket<undefined> | null = null;
  private partial = "";

  static async connect(port: number, tls = false): Promise<RawClient> {
    const c = new RawClient();
    c.socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      ...(tls ? { tls: { rejectUnauthorized: false } } : {}),
      socket: {
        data: (_s, d) => {
          const text = c.partial + new TextDecoder().decode(d);
          const parts = text.split("\n");
          c.partial = parts.pop() ?? "";
          for (const p of parts) if (p) c.lines.push(p);
        },
        close: () => {
          c.closed = true;
        },
        error: () => {
          c.closed = true;
        },
      },
    });
    return c;
  }

  send(text: string): void {
    this.socket?.write(text);
  }

  request(id: number, method: string, params: unknown[]): void {
    this.send(`${JSON.stringify({ id, method, params })}\n`);
  }

  /** The parsed answer to request `id`, once it has arrived. */
  answer(id: number): { result: unknown; error: unknown } | undefined {
    for (const l of this.lines) {
      const m = JSON.parse(l) as { id?: unknown; result: unknown; error: unknown; method?: unknown };
      if (m.id === id && m.method === undefined) return m;
    }
    return undefined;
  }

  close(): void {
    this.socket?.end();
  }
}
