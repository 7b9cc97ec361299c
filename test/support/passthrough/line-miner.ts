/**
 * A scripted miner for the pass-through relay: it writes exactly the bytes it is given and keeps
 * every byte it receives, so a test can compare both directions byte for byte.
 */
import type { Socket } from "bun";

export class LineMiner {
  received = "";
  closed = false;
  private socket: Socket<undefined> | null = null;

  static async connect(port: number): Promise<LineMiner> {
    const m = new LineMiner();
    m.socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        data: (_s, d) => {
          m.received += new TextDecoder().decode(d);
        },
        close: () => {
          m.closed = true;
        },
        error: () => {
          m.closed = true;
        },
      },
    });
    return m;
  }

  send(bytes: string): void {
    this.socket?.write(bytes);
  }

  /** Lines received so far, with their terminators. */
  lines(): string[] {
    return this.received.match(/[^\n]*\n/g) ?? [];
  }

  /** The parsed answer to request `id` (a line with that id and no method). */
  answer(id: number): { result: unknown; error: unknown } | undefined {
    for (const l of this.lines()) {
      const m = JSON.parse(l) as { id?: unknown; method?: unknown; result: unknown; error: unknown };
      if (m.id === id && m.method === undefined) return m;
    }
    return undefined;
  }

  close(): void {
    this.socket?.end();
  }
}
