/**
 * The whole update as the service runs it: the supervisor runs release 1.0.0 (a real process on
 * 127.0.0.1), a bundle is applied, the program asks for a restart (exit 75), and the supervisor
 * health-checks the new release, keeping it with its data or rolling back to the old one.
 */
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  setDefaultTimeout,
  test,
} from "bun:test";
import { mkdtemp, readlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyBundle } from "../../appliance/ops/ota/apply.ts";
import { otaPaths } from "../../appliance/ops/ota/layout.ts";
import {
  type Supervisor,
  type SupervisorEvent,
  startSupervisor,
} from "../../appliance/ops/ota/supervisor.ts";
import { readUpdateLog } from "../../appliance/ops/ota/update-log.ts";
import {
  bundleWithBrokenExecutable,
  type Mode,
  releaseDir,
  signedBundle,
  throwawayKeys,
} from "./ota-fixtures.ts";

// The health-check window below is 3 s; a test waits for at most one window plus process starts.
setDefaultTimeout(30_000);
const keys = throwawayKeys();
// The installed executable's version, as the supervisor tells its child; restored for other files.
const savedBuiltin = process.env.PITHEAD_BUILTIN_VERSION;
beforeAll(() => {
  process.env.PITHEAD_BUILTIN_VERSION = "1.0.0";
});
afterAll(() => {
  if (savedBuiltin === undefined) delete process.env.PITHEAD_BUILTIN_VERSION;
  else process.env.PITHEAD_BUILTIN_VERSION = savedBuiltin;
});
let dataDir: string;
let sup: Supervisor | null = null;
let events: SupervisorEvent[] = [];
let waiters: { match: (e: SupervisorEvent) => boolean; resolve: (e: SupervisorEvent) => void }[] = [];

function onEvent(e: SupervisorEvent): void {
  events.push(e);
  for (const w of waiters.filter((x) => x.match(e))) w.resolve(e);
  waiters = waiters.filter((x) => !x.match(e));
}

/** The next event (from `from` on in the event list) that matches. */
function eventAfter<T extends SupervisorEvent["type"]>(
  from: number,
  type: T,
): Promise<Extract<SupervisorEvent, { type: T }>> {
  const seen = events.slice(from).find((e) => e.type === type);
  if (seen) return Promise.resolve(seen as Extract<SupervisorEvent, { type: T }>);
  return new Promise((resolve) =>
    waiters.push({
      match: (e) => e.type === type,
      resolve: (e) => resolve(e as Extract<SupervisorEvent, { type: T }>),
    }),
  );
}

async function text(url: string, init?: RequestInit): Promise<string> {
  return (await fetch(url, init)).text();
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "pithead-update-"));
  events = [];
  waiters = [];
  const builtin = join(await releaseDir("1.0.0"), "app/main.js");
  sup = startSupervisor({
    dataDir,
    builtin: [process.execPath, builtin],
    runtime: process.execPath,
    healthTimeoutMs: 3000,
    onEvent,
  });
});

afterEach(async () => {
  await sup?.stop();
  sup = null;
});

/** Starts on 1.0.0, stores a value, applies `version`, asks 1.0.0 to restart; returns the event index. */
async function updateTo(version: string, mode: Mode | "unstartable"): Promise<number> {
  const old = await eventAfter(0, "listening");
  expect(await text(`${old.base}/healthz`)).toBe('{"ok":true,"version":"1.0.0"}');
  await text(`${old.base}/kv?k=wallet`, { method: "PUT", body: "keep-me" });
  const machine = process.arch === "arm64" ? 183 : 62;
  const bundle =
    mode === "unstartable"
      ? await bundleWithBrokenExecutable(version, keys.privateKey, machine)
      : await signedBundle(version, keys.privateKey, mode);
  await applyBundle({ dataDir, bundle, publicKey: keys.publicKey });
  const mark = events.length;
  await text(`${old.base}/restart`);
  return mark;
}

describe("update through the supervisor", () => {
  test("a good update switches version and keeps the data", async () => {
    const mark = await updateTo("1.1.0", "good");
    expect((await eventAfter(mark, "healthy")).version).toBe("1.1.0");
    const now = await eventAfter(mark, "listening");
    expect(await text(`${now.base}/healthz`)).toBe('{"ok":true,"version":"1.1.0"}');
    expect(await text(`${now.base}/kv?k=wallet`)).toBe("keep-me");
    expect(await Bun.file(otaPaths(dataDir).pending).exists()).toBe(false);
    expect(await readlink(otaPaths(dataDir).current)).toBe(otaPaths(dataDir).release("1.1.0"));
    const log = await readUpdateLog(dataDir);
    expect(log[0]?.event).toBe("healthy");
  });

  test("a release that fails its health check is rolled back with the database", async () => {
    const mark = await updateTo("1.1.0", "unhealthy");
    const rb = await eventAfter(mark, "rolled_back");
    expect(rb).toMatchObject({ from: "1.1.0", to: "1.0.0", reason: "no healthy answer in time" });
    const back = events.slice(events.indexOf(rb)).find((e) => e.type === "listening");
    const base =
      back?.type === "listening" ? back.base : (await eventAfter(events.indexOf(rb), "listening")).base;
    expect(await text(`${base}/healthz`)).toBe('{"ok":true,"version":"1.0.0"}');
    expect(await text(`${base}/kv?k=wallet`)).toBe("keep-me");
    // 1.1.0 wrote to the database while it ran; the restored backup has no trace of it.
    expect(JSON.parse(await text(`${base}/started`))).toEqual(["1.0.0", "1.0.0"]);
    expect(await Bun.file(otaPaths(dataDir).current).exists()).toBe(false);
    expect((await readUpdateLog(dataDir))[0]?.event).toBe("rolled_back");
  });

  test("a release whose executable the system cannot run is rolled back", async () => {
    const mark = await updateTo("1.1.0", "unstartable");
    const rb = await eventAfter(mark, "rolled_back");
    expect(rb).toMatchObject({ from: "1.1.0", to: "1.0.0" });
    expect(rb.type === "rolled_back" && rb.reason).toStartWith("could not start: ");
    const again = await eventAfter(events.indexOf(rb), "listening");
    expect(await text(`${again.base}/kv?k=wallet`)).toBe("keep-me");
  });

  test("a release that cannot start is rolled back", async () => {
    const mark = await updateTo("1.1.0", "crash");
    const rb = await eventAfter(mark, "rolled_back");
    expect(rb).toMatchObject({ from: "1.1.0", to: "1.0.0", reason: "exited with 1" });
    const again = await eventAfter(events.indexOf(rb), "listening");
    expect(await text(`${again.base}/kv?k=wallet`)).toBe("keep-me");
  });
});
