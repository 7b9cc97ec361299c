/**
 * The pass-through family's side of a running port: each miner with its own pool session (the only
 * mode there is: the relay does not understand these coins' jobs, so it cannot share a session
 * between miners nor move a miner to a fee pool).
 */
import { endpointText } from "../../transport/endpoint.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import type { FamilyRuntime, MinerConnection } from "../family.ts";
import { PortView } from "../port-view.ts";
import { PoolLink, type PoolLinkOwner } from "./pool-link.ts";
import { MinerRelay, type RelayHost } from "./relay.ts";

export class PassthroughRuntime extends PortView implements FamilyRuntime, RelayHost {
  readonly miners = new Set<MinerRelay>();

  // ---- FamilyRuntime ----

  accept(socket: ByteSocket, ip: string): MinerConnection {
    const relay = new MinerRelay(this, socket, ip);
    if (relay.state === "open") this.miners.add(relay);
    return relay;
  }

  start(): void {}

  stop(): void {
    for (const m of [...this.miners]) m.close("port stopped");
  }

  /**
   * The main pool changed. A miner's login, subscription and extranonce live in its pool session,
   * which the relay cannot replay on another pool honestly: each miner is disconnected and, when it
   * reconnects, gets a session to the new pool.
   */
  rehomeMain(reason: string): void {
    if (this.miners.size > 0)
      this.log("info", `${reason}: ${this.miners.size} miner(s) disconnected to reconnect`);
    for (const m of [...this.miners]) m.close(`${reason}: reconnect`);
  }

  refreshFee(): void {}

  sweep(): void {}

  get online(): number {
    let n = 0;
    for (const m of this.miners) if (m.loggedIn) n++;
    return n;
  }

  get connected(): number {
    return this.miners.size;
  }

  sessionCounts(): { main: number; fee: number } {
    let main = 0;
    for (const m of this.miners) if (m.poolOpen) main++;
    return { main, fee: 0 };
  }

  // ---- RelayHost ----

  openPool(owner: PoolLinkOwner): PoolLink | null {
    const endpoint = this.ctx.mainEndpoint();
    if (endpoint === null) return null;
    const link = new PoolLink(
      endpoint,
      { connectTimeoutMs: this.ctx.timing.connectTimeoutMs, silentMs: this.ctx.timing.jobTimeoutMs },
      owner,
    );
    link.start();
    return link;
  }

  poolDown(link: PoolLink, reason: string, healthy: boolean): void {
    if (!healthy) this.log("warn", `upstream ${endpointText(link.endpoint)} (main): ${reason}`);
    this.ctx.mainDown(link.endpoint, reason, healthy);
  }

  release(relay: MinerRelay): void {
    if (this.miners.delete(relay)) this.ctx.connectionClosed(relay.ip);
  }
}
