/**
 * Parent side of proxy-child.ts (and of pool-child.ts): spawn, wait for READY, ask for memory and
 * statistics.
 */
import type { Subprocess } from "bun";
import type { PortStatsView } from "../../appliance/domain/engine.ts";
import type { Port } from "../../appliance/domain/port.ts";
import type { TestPoolOptions } from "../../test/support/stratum/test-pool.ts";
import type { AllocationWindow } from "./allocation-count.ts";
import type { TimeScale } from "./scaled-clock.ts";
import type { StallSummary } from "./stall-meter.ts";

export class ProxyProcess {
  private buffer = "";
  private readonly waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];

  private constructor(private readonly child: Subprocess<"pipe", "pipe", "inherit">) {
    void this.pump();
  }

  port = 0;

  /** The proxy serving `port`; `scaled`: its fee clock. */
  static start(port: Port, scaled?: TimeScale): Promise<ProxyProcess> {
    return ProxyProcess.spawn([
      "proxy-child.ts",
      JSON.stringify(port),
      ...(scaled ? [JSON.stringify(scaled)] : []),
    ]);
  }

  /**
   * A baseline instead of the proxy (bare-child.ts): a bare socket server, or with `relayTo` (a
   * pool's host:port) a bare relay, holding `stateBytes` of JavaScript state per connection.
   */
  static startBare(stateBytes: number, relayTo?: string): Promise<ProxyProcess> {
    return ProxyProcess.spawn(["bare-child.ts", String(stateBytes), ...(relayTo ? [relayTo] : [])]);
  }

  /** A test pool in its own process (pool-child.ts): `port` is the pool's, `stop` ends it. */
  static startPool(options: TestPoolOptions): Promise<ProxyProcess> {
    return ProxyProcess.spawn(["pool-child.ts", JSON.stringify(options)]);
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  private static async spawn(script: string[]): Promise<ProxyProcess> {
    const child = Bun.spawn([process.execPath, `${import.meta.dir}/${script[0]}`, ...script.slice(1)], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
      // what the benchmark sets at run time (BUN_JSC_logGC, say) reaches the child too
      env: process.env,
    });
    const p = new ProxyProcess(child);
    const ready = await p.next("READY ");
    p.port = Number(ready.slice(6));
    return p;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of this.child.stdout) {
      this.buffer += decoder.decode(chunk);
      let nl = this.buffer.indexOf("\n");
      while (nl >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const i = this.waiters.findIndex((w) => line.startsWith(w.prefix));
        if (i >= 0) this.waiters.splice(i, 1)[0]?.resolve(line);
        nl = this.buffer.indexOf("\n");
      }
    }
  }

  private next(prefix: string): Promise<string> {
    return new Promise((resolve) => this.waiters.push({ prefix, resolve }));
  }

  private send(command: string): void {
    this.child.stdin.write(`${command}\n`);
    this.child.stdin.flush();
  }

  /** Sends `command` and resolves with what follows `reply` on the child's answering line. */
  private async ask(command: string, reply: string): Promise<string> {
    const p = this.next(reply);
    this.send(command);
    return (await p).slice(reply.length);
  }

  async memory(): Promise<{ rss: number; heap: number }> {
    const [rss, heap] = (await this.ask("mem", "MEM ")).split(" ").map(Number);
    return { rss: rss as number, heap: heap as number };
  }

  /** Writes a heap snapshot of the proxy (after a full GC) to `path`. */
  async snap(path: string): Promise<void> {
    await this.ask(`snap ${path}`, "SNAP");
  }

  async stats(): Promise<PortStatsView> {
    return JSON.parse(await this.ask("stats", "STATS ")) as PortStatsView;
  }

  /** Starts measuring the proxy's event-loop stalls (stall-meter.ts). */
  stallsStart(): void {
    this.send("stalls-start");
  }

  async stalls(): Promise<StallSummary> {
    return JSON.parse(await this.ask("stalls", "STALLS ")) as StallSummary;
  }

  /** Starts counting the objects the proxy makes (allocation-count.ts); resolves once counting. */
  async countStart(): Promise<void> {
    await this.ask("count-start", "COUNTING");
  }

  async count(): Promise<AllocationWindow> {
    return JSON.parse(await this.ask("count", "COUNT ")) as AllocationWindow;
  }

  async stop(): Promise<void> {
    this.send("exit");
    await Promise.race([this.child.exited, Bun.sleep(5000)]);
    this.child.kill();
  }
}
