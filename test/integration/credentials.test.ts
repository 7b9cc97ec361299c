import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type Port = { items: { server: { id: number } }[] };

/** A call as a machine would make it: the token in the group-control header or as a bearer. */
async function as(token: string, method: string, path: string, body?: unknown, header = "x-api-token") {
  const res = await fetch(`${t.app.url()}${path}`, {
    method,
    headers: {
      [header]: header === "authorization" ? `Bearer ${token}` : token,
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function operationLog(): Promise<string[]> {
  const log = await t.client.get<{ message: string }[]>("/api/operation/log");
  return log.body.map((e) => e.message);
}

describe("the group-control token has one scope", () => {
  test("it reads and starts ports; it cannot touch wallets, the account, tokens or metrics, and each refusal is logged", async () => {
    const created = await t.client.post<{ id: number }>("/api/port/new", portBody({ port: freePort() }));
    const id = created.body.id;
    const control = (await t.client.get<{ token: string }>("/api/remote/token")).body.token;

    expect((await as(control, "GET", "/api/ports")).status).toBe(200);
    expect((await as(control, "GET", `/api/port/${id}`)).status).toBe(200);
    expect((await as(control, "GET", "/api/local/version")).status).toBe(200);
    expect((await as(control, "GET", "/api/sys/stat")).status).toBe(200);
    expect((await as(control, "POST", `/api/port/${id}/start`)).status).toBe(200);
    expect((await as(control, "POST", `/api/port/${id}/stop`)).status).toBe(200);

    const item = (await t.client.get<{ wallets: { id: number }[] }>(`/api/port/${id}`)).body;
    const wallet = item.wallets[0]?.id;
    const swap = await as(control, "POST", `/api/wallet/${wallet}`, {
      addr: "attacker",
      device: "x",
      pool_address: "127.0.0.1:1",
      ratio: 0.5,
    });
    expect(swap.status).toBe(403);
    expect(JSON.parse(swap.text).error.key).toBe("lang.err.scope");
    for (const [method, path] of [
      ["GET", "/api/remote/token"],
      ["POST", "/api/remote/refresh/token"],
      ["GET", "/api/metrics/token"],
      ["POST", "/api/_/changepassword"],
      ["GET", "/api/metrics"],
      ["DELETE", `/api/port/${id}`],
    ] as const)
      expect({
        method,
        path,
        status: (await as(control, method, path, method === "GET" ? undefined : {})).status,
      }).toEqual({
        method,
        path,
        status: 403,
      });
    // the wallet is untouched and the attempt is on record
    const after = (await t.client.get<{ wallets: { addr: string }[] }>(`/api/port/${id}`)).body;
    expect(after.wallets[0]?.addr).toBe("bc1qfee");
    expect(await operationLog()).toContain(
      `refused: the control token may not call POST /api/wallet/${wallet}`,
    );
  });

  test("the metrics token reads /api/metrics as a bearer token and nothing else", async () => {
    const metrics = (await t.client.get<{ token: string }>("/api/metrics/token")).body.token;
    const control = (await t.client.get<{ token: string }>("/api/remote/token")).body.token;
    expect(metrics).not.toBe(control);
    const scrape = await as(metrics, "GET", "/api/metrics", undefined, "authorization");
    expect(scrape.status).toBe(200);
    expect(scrape.text).toContain("# TYPE pithead_port_up gauge");
    expect((await as(metrics, "GET", "/api/ports", undefined, "authorization")).status).toBe(403);
    expect((await as(metrics, "GET", "/api/metrics/token", undefined, "authorization")).status).toBe(403);
    const fresh = (await t.client.post<{ token: string }>("/api/metrics/token/refresh")).body.token;
    expect(fresh).not.toBe(metrics);
    expect((await as(metrics, "GET", "/api/metrics", undefined, "authorization")).status).toBe(401);
    expect((await as(fresh, "GET", "/api/metrics", undefined, "authorization")).status).toBe(200);
  });
});

describe("a password change replaces every machine token", () => {
  test("the attack: a token taken before the change can no longer read or change anything", async () => {
    const other = await startTestAppliance();
    try {
      const control = (await other.client.get<{ token: string }>("/api/remote/token")).body.token;
      const metrics = (await other.client.get<{ token: string }>("/api/metrics/token")).body.token;
      const call = (token: string, path: string) =>
        fetch(`${other.app.url()}${path}`, { headers: { "x-api-token": token } }).then((r) => r.status);
      expect(await call(control, "/api/ports")).toBe(200);
      const changed = await other.client.changePassword("admin", other.password, "new-secret-1");
      expect(changed.status).toBe(200);
      expect(await call(control, "/api/ports")).toBe(401);
      expect(await call(metrics, "/api/metrics")).toBe(401);
      expect((await other.client.login("admin", "new-secret-1")).status).toBe(200);
      const renewed = (await other.client.get<{ token: string }>("/api/remote/token")).body.token;
      expect(renewed).not.toBe(control);
      expect(await call(renewed, "/api/ports")).toBe(200);
      const ports = await other.client.get<Port>("/api/ports");
      expect(ports.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
