/**
 * Every kind of configuration change reaches the audit log with the fields that changed, and secrets
 * never do: ports, ratios, settings, the secure route, tokens, blacklists, certificate, KENC key,
 * update source and the admin account, one call each through the real API.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeSelfSigned } from "../../appliance/ops/certificate.ts";
import { Client, freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type Change = { field: string; old: unknown; new: unknown };
type Entry = { object: string; outcome: string; changes: Change[] };

test("each change is recorded old → new; passwords, tokens and keys are redacted", async () => {
  const c = t.client;
  const port = freePort();
  const { id } = (await c.post<{ id: number }>("/api/port/new", portBody({ port }))).body;
  expect((await c.post(`/api/port/${id}`, portBody({ port, pool_address: "127.0.0.1:2" }))).status).toBe(200);
  await c.post(`/api/port/${id}/wallet/ratio`, { wallet: "bc1qminer", r: 0.05 });
  await c.post("/api/warning/setting", { device_offline: true, hashrate_drop: 10, push_key: "secret-push" });
  await c.post("/api/route", { k: "Farm/" });
  const inside = new Client(`${t.app.url()}/Farm`);
  inside.token = c.token;
  expect((await inside.post("/api/route", { k: "" })).status).toBe(200);
  await c.post("/api/remote/refresh/token");
  await c.post("/api/ip/blacklist", { ips: ["10.0.0.9"] });
  await c.del("/api/ip/blacklist", { ips: ["10.0.0.9"] });
  const pair = makeSelfSigned("audit.example");
  expect((await c.post("/api/cert/upload", { cert: pair.cert, key: pair.key })).status).toBe(200);
  await c.post("/api/kc/key", { k: "kenc-secret" });
  await c.post("/api/update/source", { url: "https://updates.example/" });
  const changed = await c.changePassword("admin2", t.password, "new-secret-1");
  expect(changed.status).toBe(200);
  expect((await c.login("admin2", "new-secret-1")).status).toBe(200);

  const log = (await c.get<{ items: Entry[] }>("/api/audit?limit=500")).body.items;
  const has = (object: string, change: Change) =>
    expect({
      object,
      found: log.some((e) => e.object === object && e.changes.some((x) => equal(x, change))),
    }).toEqual({
      object,
      found: true,
    });
  has(`port ${port}`, { field: "pool_address", old: null, new: "127.0.0.1:1" });
  has(`port ${port}`, { field: "pool_address", old: "127.0.0.1:1", new: "127.0.0.1:2" });
  has(`ratio of wallet bc1qminer on port ${port}`, { field: "ratio", old: null, new: 0.05 });
  has("setting alert", { field: "hashrate_drop", old: 0, new: 10 });
  has("setting alert", { field: "push_key", old: "", new: "[redacted]" });
  has("secure route", { field: "route", old: "", new: "Farm/" });
  has("secure route", { field: "route", old: "Farm/", new: "" });
  has("group-control token", { field: "token", old: "[redacted]", new: "[redacted]" });
  has("ip blacklist", { field: "10.0.0.9", old: null, new: true });
  has("ip blacklist", { field: "10.0.0.9", old: true, new: null });
  has("TLS certificate", { field: "builtin", old: true, new: false });
  has("KENC key", { field: "kenc_key", old: "", new: "[redacted]" });
  has("update source", { field: "url", old: "", new: "https://updates.example/" });
  has("admin account", { field: "username", old: "admin", new: "admin2" });
  has("admin account", { field: "password", old: "[redacted]", new: "[redacted]" });
  const text = JSON.stringify(log);
  for (const secret of ["secret-push", "kenc-secret", "new-secret-1", pair.key.slice(40, 80)])
    expect({ secret, leaked: text.includes(secret) }).toEqual({ secret, leaked: false });
});

const equal = (a: Change, b: Change) => a.field === b.field && a.old === b.old && a.new === b.new;
