/**
 * Transport settings through the whole appliance: the SOCKS5 port's RFC 1929 credentials
 * (docs/transports.md) are validated, stored, read back for the editor, kept out of the audit log
 * and asked of miners by the running port; a KENC port (docs/kenc.md) uses the KENC key set in the
 * console, and a changed key applies to the next connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SocksClient } from "socks";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { WebKencClient } from "../support/kenc/web-kenc.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type ErrorBody = { error?: { key: string; field?: string } };
const SOCKS5 = { protocol: 0, setting: { et_mode: 2 } };

const create = (overrides: Record<string, unknown>) =>
  t.client.post<{ id: number } & ErrorBody>("/api/port/new", portBody({ port: freePort(), ...overrides }));

const withCredentials = (user: string, password: string, over: Record<string, unknown> = SOCKS5) => ({
  ...over,
  setting: { ...(over.setting as object), socks_user: user, socks_password: password },
});

describe("SOCKS5 credentials at the API", () => {
  test("both or neither, 1 to 255 bytes each, only on a SOCKS5 port", async () => {
    for (const [body, field] of [
      [withCredentials("farm", ""), "setting.socks_password"],
      [withCredentials("", "secret"), "setting.socks_user"],
      [withCredentials("é".repeat(128), "secret"), "setting.socks_user"],
      [withCredentials("farm", "x".repeat(256)), "setting.socks_password"],
      [withCredentials("farm", "secret", { protocol: 0 }), "setting.socks_user"],
      [withCredentials("farm", "secret", { protocol: 1, setting: { et_mode: 0 } }), "setting.socks_user"],
    ] as const) {
      const res = await create(body);
      expect({ status: res.status, key: res.body.error?.key, field: res.body.error?.field }).toEqual({
        status: 400,
        key: "lang.proxy.err_socks_auth",
        field,
      });
    }
    expect((await create(withCredentials("é".repeat(127), "x".repeat(255)))).status).toBe(200);
  });

  test("stored and read back for the editor; the audit log has the user but not the password", async () => {
    const res = await create(withCredentials("farm-9", "s3cret pass"));
    expect(res.status).toBe(200);
    const item = (await t.client.get<{ setting: Record<string, unknown> }>(`/api/port/${res.body.id}`)).body;
    expect(item.setting).toMatchObject({ et_mode: 2, socks_user: "farm-9", socks_password: "s3cret pass" });
    const audit = (
      await t.client.get<{ items: { changes: { field: string; new: unknown }[] }[] }>(
        `/api/audit?q=${encodeURIComponent("farm-9")}`,
      )
    ).body.items;
    const changes = audit.flatMap((e) => e.changes);
    expect(changes.find((c) => c.field === "setting.socks_user")?.new).toBe("farm-9");
    expect(changes.find((c) => c.field === "setting.socks_password")?.new).toBe("[redacted]");
    expect(JSON.stringify(audit)).not.toContain("s3cret");
  });

  test("the running port asks the stored credentials of its miners", async () => {
    const port = freePort();
    const res = await t.client.post<{ id: number }>(
      "/api/port/new",
      portBody({ port, status: 1, ...withCredentials("farm-5", "pw5") }),
    );
    expect(res.status).toBe(200);
    const connect = (userId: string, password: string) =>
      SocksClient.createConnection({
        proxy: { host: "127.0.0.1", port, type: 5, userId, password },
        command: "connect",
        destination: { host: "pool.example", port: 3333 },
      });
    await expect(connect("farm-5", "pw6")).rejects.toThrow();
    const ok = await connect("farm-5", "pw5");
    ok.socket.destroy();
  });
});

describe("KENC with the console's key", () => {
  test("a KENC port speaks with the key set in the console; a new key applies to the next connection", async () => {
    const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    try {
      expect((await t.client.post("/api/kc/key", { k: "first key" })).status).toBe(200);
      const port = freePort();
      const res = await create({
        port,
        status: 1,
        protocol: 1,
        setting: { et_mode: 1 },
        pool_address: pool.address,
      });
      expect(res.status).toBe(200);
      const subscribe = async (key: string) => {
        const c = await WebKencClient.connect(port, key);
        c.write(new TextEncoder().encode('{"id":1,"method":"mining.subscribe","params":[]}\n'));
        await until(() => c.received.includes("\n") || c.closed);
        c.end();
        return c.received;
      };
      expect(JSON.parse(await subscribe("first key"))).toMatchObject({ id: 1, error: null });
      expect((await t.client.post("/api/kc/key", { k: "second key" })).status).toBe(200);
      expect(await subscribe("first key")).toBe("");
      expect(JSON.parse(await subscribe("second key"))).toMatchObject({ id: 1, error: null });
    } finally {
      await pool.stop();
    }
  });
});
