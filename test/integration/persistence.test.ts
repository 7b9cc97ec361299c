import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { startAppliance } from "../../appliance/appliance.ts";
import { parseArgs } from "../../appliance/config.ts";
import { WEB_PORT_SETTING } from "../../appliance/web/api/port-guards.ts";
import { Client, portBody, startTestAppliance, tempDir } from "../support/appliance.ts";
import { BUN, spawnAppliance } from "../support/process.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("persistence", () => {
  test("configuration survives a restart", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await startTestAppliance(dir);
    const created = await first.client.post<{ id: number }>(
      "/api/port/new",
      portBody({ port: 40001, name: "kept" }),
    );
    await first.client.post("/api/kc/key", { k: "persist-me" });
    await first.client.post("/api/wallet/blacklist", { ips: ["bad-wallet"] });
    await first.client.post(`/api/port/${created.body.id}/wallet/ratio`, { wallet: "bc1qminer", r: 0.05 });
    await first.close(true);

    const second = await startTestAppliance(dir);
    try {
      const item = await second.client.get<{ server: { name: string; port: number } }>(
        `/api/port/${created.body.id}`,
      );
      expect(item.body.server).toMatchObject({ name: "kept", port: 40001 });
      expect((await second.client.get<{ k: string }>("/api/kc/key")).body.k).toBe("persist-me");
      expect((await second.client.get<string[]>("/api/wallet/blacklist")).body).toEqual(["bad-wallet"]);
      const ratios = await second.client.get<{ addr: string; ratio: number }[]>(
        `/api/port/${created.body.id}/wallet/ratio`,
      );
      expect(ratios.body).toEqual([expect.objectContaining({ addr: "bc1qminer", ratio: 0.05 })]);
      // the first password was not replaced by the restart
      expect(second.password).toBe(first.password);
      // hashes, keys and tokens are readable by the owner only
      for (const f of ["pithead.db", "pithead.db-wal"])
        expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    } finally {
      await second.close(true);
    }
  });

  test("SIGKILL in the middle of a stream of writes loses no acknowledged write", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const app = await spawnAppliance(dir);
    const client = new Client(app.url);
    const password = readFileSync(join(dir, "initial-password"), "utf8").trim();
    expect((await client.login("admin", password)).status).toBe(200);

    const acked: { id: number; port: number }[] = [];
    let next = 20000;
    let killed = false;
    const writer = async () => {
      while (!killed) {
        const port = next++;
        try {
          const res = await client.post<{ id: number }>(
            "/api/port/new",
            portBody({ port, name: `p${port}` }),
          );
          if (res.status === 200) acked.push({ id: res.body.id, port });
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    while (acked.length < 60) await Bun.sleep(5);
    app.proc.kill("SIGKILL");
    killed = true;
    await app.proc.exited;
    await Promise.all(writers);

    const db = new Database(join(dir, "pithead.db"));
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe(
      "ok",
    );
    db.close();

    const again = await startTestAppliance(dir);
    try {
      const items = (
        await again.client.get<{ items: { server: { id: number; port: number } }[] }>("/api/ports")
      ).body.items;
      const have = new Set(items.map((i) => `${i.server.id}:${i.server.port}`));
      const lost = acked.filter((a) => !have.has(`${a.id}:${a.port}`));
      expect(lost).toEqual([]);
      expect(acked.length).toBeGreaterThanOrEqual(60);
    } finally {
      await again.close(true);
    }
  });
});

describe("pithead reset-password", () => {
  test("sets a new random password, writes it to initial-password, and signs every session and machine token out", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await startTestAppliance(dir);
    expect((await first.client.changePassword("admin", first.password, "operator-chosen")).status).toBe(200);
    await first.client.login("admin", "operator-chosen");
    const control = (await first.client.get<{ token: string }>("/api/remote/token")).body.token;
    const metrics = (await first.client.get<{ token: string }>("/api/metrics/token")).body.token;
    await first.close(true);

    const proc = Bun.spawnSync([
      BUN,
      join(import.meta.dir, "../../appliance/main.ts"),
      "reset-password",
      "--data-dir",
      dir,
    ]);
    expect(proc.exitCode).toBe(0);
    // stdout is a pipe here, as under systemd: the password is only in the file (password-output.test.ts)
    const stored = readFileSync(join(dir, "initial-password"), "utf8").trim();
    expect(stored).toMatch(/^[A-Za-z0-9]{16}$/);

    const again = await startTestAppliance(dir, false);
    try {
      expect((await again.client.login("admin", "operator-chosen")).status).toBe(400);
      const res = await again.client.login("admin", stored);
      expect(res.status).toBe(200);
      expect(res.body.default_password).toBe(true);
      // machine tokens taken before the reset are dead too
      const status = (path: string, token: string) =>
        fetch(`${again.app.url()}${path}`, { headers: { "x-api-token": token } }).then((r) => r.status);
      expect(await status("/api/ports", control)).toBe(401);
      expect(await status("/api/metrics", metrics)).toBe(401);
    } finally {
      await again.close(true);
    }
  });
});

describe("PITHEAD_DEFAULT_WEB_PORT", () => {
  test("seeds the stored web port at the first start only", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const start = async (defaultPort: string) => {
      const cfg = parseArgs(["run", "--data-dir", dir, "--web-port", "0", "--host", "127.0.0.1"], {
        PITHEAD_DEFAULT_WEB_PORT: defaultPort,
      });
      const app = await startAppliance(cfg);
      const stored = app.ctx.settings.get<number>(WEB_PORT_SETTING, 0);
      await app.stop();
      return stored;
    };
    expect(await start("8181")).toBe(8181);
    // a later start keeps what is stored (the operator may have changed it in the console)
    expect(await start("9191")).toBe(8181);
  });
});
