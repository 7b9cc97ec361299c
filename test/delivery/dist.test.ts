/**
 * `make dist` output: the x64 executable starts from an empty directory with nothing but itself,
 * serves the embedded console, and an admin logs in with the printed first password over the
 * scripted login wire format. The arm64 executable is checked to be an aarch64 ELF here; running it
 * under qemu-user is part of `make image-test`.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { freePort, portBody } from "../support/appliance.ts";
import { type Spawned, spawnAppliance } from "../support/process.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";
import { login } from "./login.ts";

const root = join(import.meta.dir, "../..");
setDefaultTimeout(180_000);

let out: string;
let dataDir: string;
let proc: Spawned["proc"] | null = null;
let base: string;

async function json<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, body: (await res.json()) as T };
}

describe("make dist executables", () => {
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "pithead-dist-"));
    const build = Bun.spawnSync([process.execPath, "scripts/dist.ts", "--out", out, "--no-bundle"], {
      cwd: root,
    });
    if (build.exitCode !== 0) throw new Error(`dist failed:\n${build.stdout}\n${build.stderr}`);
    // an empty directory holding nothing but the data dir the executable makes
    dataDir = join(await mkdtemp(join(tmpdir(), "pithead-empty-")), "data");
    await mkdir(dataDir);
    const app = await spawnAppliance(dataDir, [join(out, "pithead-linux-x64")]);
    proc = app.proc;
    base = app.url;
  });

  afterAll(async () => {
    proc?.kill("SIGTERM");
    await proc?.exited;
  });

  test("the arm64 executable is an aarch64 ELF", async () => {
    const head = new Uint8Array(await Bun.file(join(out, "pithead-linux-arm64")).slice(0, 20).arrayBuffer());
    expect([...head.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
    expect(head[18]).toBe(183); // e_machine EM_AARCH64
  });

  test("the x64 executable reports its version and health", async () => {
    const v = Bun.spawnSync([join(out, "pithead-linux-x64"), "version"]);
    expect(v.stdout.toString().trim()).toBe(pkg.version);
    expect((await json("/healthz")).body).toEqual({ ok: true, version: pkg.version });
  });

  test("the console is served from the executable", async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await readFile(join(root, "ui/dist/index.html"), "utf8"));
  });

  test("an admin logs in with the first password", async () => {
    const password = (await readFile(join(dataDir, "initial-password"), "utf8")).trim();
    const token = await login(base, password, "1234");
    expect(token.length).toBeGreaterThan(16);
    const res = await fetch(`${base}/api/version`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { version: string }).version).toBe(pkg.version);
  });

  test("the fee audit worker is built into the executable: an xlsx export answers", async () => {
    const password = (await readFile(join(dataDir, "initial-password"), "utf8")).trim();
    const auth = { authorization: `Bearer ${await login(base, password, "1234")}` };
    const created = await fetch(`${base}/api/port/new`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(portBody({ port: freePort() })),
    });
    const { id } = (await created.json()) as { id: number };
    const res = await fetch(`${base}/api/stat/port/${id}/fee-audit?format=xlsx`, { headers: auth });
    expect(res.status).toBe(200);
    // an xlsx is a zip: local file header PK\3\4
    expect([...new Uint8Array(await res.arrayBuffer()).subarray(0, 4)]).toEqual([0x50, 0x4b, 3, 4]);
  });

  test("the engine's thread is built into the executable: a miner mines through a port", async () => {
    const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    try {
      const password = (await readFile(join(dataDir, "initial-password"), "utf8")).trim();
      const auth = { authorization: `Bearer ${await login(base, password, "1234")}` };
      const port = freePort();
      const created = await fetch(`${base}/api/port/new`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(portBody({ port, pool_address: pool.address, status: 1 })),
      });
      expect(created.status).toBe(200);
      const report = await TestMiner.start({ port, user: "wal.rig", maxShares: 3, maxMs: 10_000 }).done;
      expect(report.accepted).toBe(3);
    } finally {
      pool.stop();
    }
  });
});
