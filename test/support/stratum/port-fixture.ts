/**
 * Ports and engines for engine tests: a complete Port record with test defaults, and an Engine
 * whose dependencies are real (the appliance's self-signed certificate, in-memory blacklists and a
 * log collected in an array) with short timings.
 */
import type { EngineDeps, EngineTiming } from "../../../appliance/domain/engine.ts";
import {
  emptySetting,
  type Port,
  type PortSetting,
  type PortWallet,
} from "../../../appliance/domain/port.ts";
import { Engine } from "../../../appliance/engine/engine.ts";
import { makeSelfSigned } from "../../../appliance/ops/certificate.ts";
import { RawClient } from "./raw-client.ts";

let cert: { cert: string; key: string } | null = null;
export function testCertificate(): { cert: string; key: string } {
  cert ??= makeSelfSigned("127.0.0.1");
  return cert;
}

export const baseSetting = (): PortSetting => emptySetting();

let nextPortId = 1;

export function makePort(
  over: Partial<Omit<Port, "setting">> & { pool_address: string; setting?: Partial<PortSetting> },
): Port {
  const { setting, ...rest } = over;
  return {
    id: nextPortId++,
    port: 0,
    name: "test",
    currency: "BTC",
    nc: 0,
    limit_connections: 1000,
    connect_mode: 0,
    pool_address2: "",
    connect_mode2: 0,
    mode: 0,
    proxy_addr: "",
    proxy_device: "",
    pattern_addr: "",
    replace_addr: "",
    protocol: 0,
    category: "sha256",
    status: 1,
    wallets: [],
    created_at: "",
    updated_at: "",
    ...rest,
    setting: { ...baseSetting(), ...setting },
  };
}

export function feeWallet(
  id: number,
  addr: string,
  poolAddress: string,
  ratio: number,
  device = "fee",
): PortWallet {
  return {
    id,
    server_id: 0,
    addr,
    device,
    pool_address: poolAddress,
    pool_protocol: 0,
    ratio,
    created_at: "",
    updated_at: "",
  };
}

export interface TestEngine {
  engine: Engine;
  logs: string[];
  bannedIps: Set<string>;
  bannedWallets: Set<string>;
  /** applies the port and returns the port the listener bound */
  start(port: Port): Promise<number>;
}

export const FAST_TIMING: Partial<EngineTiming> = {
  loginTimeoutMs: 2_000,
  jobTimeoutMs: 5_000,
  connectTimeoutMs: 1_000,
  failbackProbeMs: 100,
  feeIdleMs: 500,
  reconnectBackoffMs: 50,
  protectMs: 0,
  // test miners at tiny difficulty submit thousands of shares a second
  floodLinesPerSecond: 1_000_000,
};

export function makeEngine(
  timing: Partial<EngineTiming> = {},
  extra: Pick<EngineDeps, "kencKey" | "rms" | "rmsUpstreamPassword"> = {},
): TestEngine {
  const logs: string[] = [];
  const bannedIps = new Set<string>();
  const bannedWallets = new Set<string>();
  const engine = new Engine({
    tls: testCertificate,
    isIpBanned: (ip) => bannedIps.has(ip),
    isWalletBanned: (w) => bannedWallets.has(w),
    log: (level, portId, message) => logs.push(`${level} ${portId ?? "-"} ${message}`),
    timing: { ...FAST_TIMING, ...timing },
    listenHostname: "127.0.0.1",
    ...extra,
  });
  return {
    engine,
    logs,
    bannedIps,
    bannedWallets,
    start: async (port) => {
      await engine.apply(port);
      return engine.running(port.id)?.boundPort ?? 0;
    },
  };
}

/**
 * Opens `count` idle connections to a running port and waits until the engine has given each of
 * them a slot. The port hands slots out in turn (allocSlot in port.ts), so the next miner lands on
 * slot `count` rather than 00, and a proxy that puts the slot byte in the wrong place of the
 * upstream extranonce2 builds a coinbase the pool rejects. The idle connections close at the login
 * timeout or when the test closes them; either way the next slot stays where it was.
 */
export async function occupySlots(
  t: TestEngine,
  port: Port,
  listenPort: number,
  count: number,
): Promise<RawClient[]> {
  const running = t.engine.running(port.id);
  if (running === undefined) throw new Error(`port ${port.id} is not running`);
  const before = running.connected;
  const clients: RawClient[] = [];
  for (let i = 0; i < count; i++) clients.push(await RawClient.connect(listenPort));
  await until(() => running.connected >= before + count);
  return clients;
}

/** Polls a condition without asserting on time: the test runner's timeout is the only bound. */
export async function until(cond: () => boolean, stepMs = 10): Promise<void> {
  while (!cond()) await Bun.sleep(stepMs);
}

/** Waits for an async condition; the test runner's timeout is the only bound (no timed assertion). */
export async function untilAsync(cond: () => Promise<boolean>, stepMs = 100): Promise<void> {
  while (!(await cond())) await Bun.sleep(stepMs);
}
