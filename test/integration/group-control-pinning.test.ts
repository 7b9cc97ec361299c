/**
 * Group control over https only, each remote's certificate pinned at registration (issue 8): two real
 * appliances on 127.0.0.1, the remote serving its console over HTTPS with its self-signed certificate.
 * What a remote presents is read here with node:tls, apart from the code under test.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { join } from "node:path";
import { makeSelfSigned } from "../../appliance/ops/certificate.ts";
import { PinError, pinnedFetch } from "../../appliance/ops/group/pinned-tls.ts";
import { DB_FILE } from "../../appliance/store/db.ts";
import { MIGRATIONS } from "../../appliance/store/migrations/index.ts";
import { startTestAppliance, type TestAppliance, tempDir } from "../support/appliance.ts";
import { servedFingerprint as presentedBy } from "../support/tls-peer.ts";

interface ErrorBody {
  error: { key: string; message: string; detail?: string };
}
interface Listed {
  id: number;
  address: string;
  pinned: boolean;
  fingerprint: string;
  state: string;
  since: string | null;
  last_seen: string | null;
  presented?: string;
  error_key?: string;
}
interface AuditItem {
  action: string;
  outcome: string;
  detail: string;
  object: string;
  changes: { field: string; old: unknown; new: unknown }[];
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await read();
    if (ok(v)) return v;
    await Bun.sleep(100);
  }
  throw new Error(`never came true: ${what}`);
}

let central: TestAppliance;
let remote: TestAppliance;
let remoteToken = "";

beforeAll(async () => {
  [central, remote] = await Promise.all([startTestAppliance(), startTestAppliance()]);
  remoteToken = (await remote.client.get<{ token: string }>("/api/remote/token")).body.token;
});
afterAll(async () => {
  await Promise.all([central.close(), remote.close()]);
});

const list = async (refresh = true) =>
  (await central.client.get<Listed[]>(`/api/remote/list${refresh ? "?refresh=1" : ""}`)).body;

describe("registration", () => {
  test("a plain http:// remote is refused with a catalogue message, and nothing is stored", async () => {
    const res = await central.client.post<ErrorBody>("/api/remote/new", {
      address: remote.app.url(),
      token: remoteToken,
      remark: "plain",
    });
    expect(res.status).toBe(400);
    expect(res.body.error.key).toBe("lang.remote.err_https");
    const inspect = await central.client.post<ErrorBody>("/api/remote/inspect", {
      address: remote.app.url(),
    });
    expect(inspect.body.error.key).toBe("lang.remote.err_https");
    expect(await list(false)).toEqual([]);
  });

  test("the fingerprint shown is the remote's served certificate; only that one confirmed registers it", async () => {
    const https = remote.app.httpsUrl();
    expect(https).toStartWith("https://127.0.0.1:");
    const served = await presentedBy(https);
    const shown = await central.client.post<{ fingerprint: string; subject: string }>("/api/remote/inspect", {
      address: https,
    });
    expect(shown.body.fingerprint).toBe(served);
    expect(shown.body.subject).toContain("CN=pithead.local");

    const unconfirmed = await central.client.post<ErrorBody>("/api/remote/new", {
      address: https,
      token: remoteToken,
      remark: "rack 2",
    });
    expect(unconfirmed.body.error.key).toBe("lang.remote.err_confirm");
    const other = new X509Certificate(makeSelfSigned("elsewhere").cert).fingerprint256;
    const wrong = await central.client.post<ErrorBody>("/api/remote/new", {
      address: https,
      token: remoteToken,
      remark: "rack 2",
      fingerprint: other,
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatchObject({ key: "lang.remote.err_changed", detail: served });
    expect(await list(false)).toEqual([]);
  });
});

describe("a pinned remote", () => {
  let id = 0;

  test("is called and listed online with the pinned fingerprint", async () => {
    const https = remote.app.httpsUrl();
    const fingerprint = await presentedBy(https);
    const res = await central.client.post<{ id: number }>("/api/remote/new", {
      address: https,
      token: remoteToken,
      remark: "rack 2",
      fingerprint: fingerprint.toLowerCase(),
    });
    expect(res.status).toBe(200);
    id = res.body.id;
    const [row] = await list();
    expect(row).toMatchObject({ id, pinned: true, fingerprint, state: "online" });
    const ports = await central.client.get<{ items: unknown[] }>(`/api/remote/q/${id}/GET/ports`);
    expect(ports.status).toBe(200);
    expect(ports.body.items).toEqual([]);
  });

  test("a swapped certificate is refused, audited, and shown as refused; re-pinning trusts the new one", async () => {
    const pinned = await presentedBy(remote.app.httpsUrl());
    const pair = makeSelfSigned("swapped.example");
    const swapped = new X509Certificate(pair.cert).fingerprint256;
    expect((await remote.client.post("/api/cert/upload", pair)).status).toBe(200);
    // the remote's HTTPS listener restarts with the new certificate
    await eventually(
      () => presentedBy(remote.app.httpsUrl()).catch(() => ""),
      (fp) => fp === swapped,
      "the remote serves the new certificate",
    );

    const call = await central.client.get<ErrorBody>(`/api/remote/q/${id}/GET/ports`);
    expect(call.status).toBe(502);
    expect(call.body.error).toMatchObject({ key: "lang.remote.err_fingerprint", detail: swapped });
    const [row] = await list();
    expect(row).toMatchObject({
      state: "refused",
      presented: swapped,
      error_key: "lang.remote.err_fingerprint",
    });
    // a second round over the same certificate is not audited again
    await list();
    const audit = (await central.client.get<{ items: AuditItem[] }>("/api/audit?limit=500")).body.items;
    const refusals = audit.filter((e) => e.outcome === "refused" && e.detail.includes(swapped));
    expect(refusals.some((e) => e.action === `GET /api/remote/q/${id}/GET/ports`)).toBe(true);
    expect(refusals.filter((e) => e.object === `group-control client ${id} (${row?.address})`)).toHaveLength(
      1,
    );

    // the operator checks the new fingerprint and pins it again
    const stale = await central.client.post<ErrorBody>(`/api/remote/${id}/pin`, { fingerprint: pinned });
    expect(stale.body.error.key).toBe("lang.remote.err_changed");
    const repin = await central.client.post(`/api/remote/${id}/pin`, { fingerprint: swapped });
    expect(repin.status).toBe(200);
    expect((await central.client.get(`/api/remote/q/${id}/GET/ports`)).status).toBe(200);
    const changes = (await central.client.get<{ items: AuditItem[] }>("/api/audit?limit=50")).body.items;
    expect(
      changes.some(
        (e) =>
          e.object === `group-control client ${id}` &&
          e.changes.some((c) => c.field === "fingerprint" && c.old === pinned && c.new === swapped),
      ),
    ).toBe(true);
  });

  test("moving a remote to another address pins that address's certificate, confirmed again", async () => {
    const moved = await startTestAppliance();
    try {
      const token = (await moved.client.get<{ token: string }>("/api/remote/token")).body.token;
      const address = moved.app.httpsUrl();
      const unconfirmed = await central.client.post<ErrorBody>(`/api/remote/${id}`, {
        address,
        token,
        remark: "rack 2",
      });
      expect(unconfirmed.body.error.key).toBe("lang.remote.err_confirm");
      const fingerprint = await presentedBy(address);
      expect(
        (await central.client.post(`/api/remote/${id}`, { address, token, remark: "rack 2", fingerprint }))
          .status,
      ).toBe(200);
      const row = (await list()).find((r) => r.id === id);
      expect(row).toMatchObject({ address, fingerprint, state: "online" });
    } finally {
      await moved.close();
    }
  });

  test("a remote that stops answering is listed offline since its first unanswered check", async () => {
    const spare = await startTestAppliance();
    const token = (await spare.client.get<{ token: string }>("/api/remote/token")).body.token;
    const https = spare.app.httpsUrl();
    const { body } = await central.client.post<{ id: number }>("/api/remote/new", {
      address: https,
      token,
      remark: "spare",
      fingerprint: await presentedBy(https),
    });
    const online = await eventually(
      () => list(),
      (rows) => rows.find((r) => r.id === body.id)?.state === "online",
      "the spare remote is online",
    );
    const seen = online.find((r) => r.id === body.id)?.last_seen;
    await spare.close();
    const first = (await list()).find((r) => r.id === body.id);
    expect(first).toMatchObject({ state: "offline", last_seen: seen, error_key: "lang.remote.err_fetch" });
    const again = (await list()).find((r) => r.id === body.id);
    expect(again?.since).toBe(first?.since ?? "");
    expect((await central.client.del(`/api/remote/${body.id}`)).status).toBe(200);
  });
});

test("a remote stored before pinning existed is listed as not pinned and not called until confirmed", async () => {
  // a data dir at schema 7 with a remote registered then, opened by this release (migration 8)
  const dir = tempDir();
  const db = new Database(join(dir, DB_FILE), { create: true, strict: true });
  db.exec("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  for (const m of MIGRATIONS.filter((m) => m.version < 8)) {
    db.exec(m.sql);
    db.query("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)").run(m.version, "2026-01-01");
  }
  const https = remote.app.httpsUrl();
  db.query(
    "INSERT INTO remote_clients (address, token, remark, created_at, updated_at) VALUES (?, ?, 'old', '', '')",
  ).run(https, remoteToken);
  db.query(
    "INSERT INTO remote_clients (address, token, remark, created_at, updated_at) VALUES (?, ?, 'plain', '', '')",
  ).run(remote.app.url(), remoteToken);
  db.close();
  const upgraded = await startTestAppliance(dir);
  try {
    const rows = (await upgraded.client.get<Listed[]>("/api/remote/list?refresh=1")).body;
    const [old, plain] = rows;
    expect(old).toMatchObject({ pinned: false, fingerprint: "", state: "unpinned" });
    expect(plain).toMatchObject({ pinned: false, state: "unpinned" });
    const call = await upgraded.client.get<ErrorBody>(`/api/remote/q/${old?.id}/GET/ports`);
    expect(call.status).toBe(409);
    expect(call.body.error.key).toBe("lang.remote.err_unpinned");
    // an http:// row cannot be pinned: its address must become https first
    const plainPin = await upgraded.client.post<ErrorBody>(`/api/remote/${plain?.id}/pin`, {});
    expect(plainPin.body.error.key).toBe("lang.remote.err_https");
    const pin = await upgraded.client.post(`/api/remote/${old?.id}/pin`, {
      fingerprint: await presentedBy(https),
    });
    expect(pin.status).toBe(200);
    expect((await upgraded.client.get(`/api/remote/q/${old?.id}/GET/ports`)).status).toBe(200);
  } finally {
    await upgraded.close();
  }
});

test("a server presenting another certificate never receives the request (nor its token)", async () => {
  const served = makeSelfSigned("served.example");
  const pinned = makeSelfSigned("pinned.example");
  const seen: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: served,
    fetch(req) {
      seen.push(req.headers.get("x-api-token") ?? "");
      return new Response("{}");
    },
  });
  try {
    const url = `https://127.0.0.1:${server.port}/api/ports`;
    const pin = (pem: string) => ({ certificate: pem, fingerprint: new X509Certificate(pem).fingerprint256 });
    const init = { headers: { "x-api-token": "secret-token" } };
    const refused = await pinnedFetch(pin(pinned.cert), url, init, 4000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PinError);
    expect((refused as PinError).presented).toBe(pin(served.cert).fingerprint);
    expect(seen).toEqual([]);
    expect((await pinnedFetch(pin(served.cert), url, init, 4000)).status).toBe(200);
    expect(seen).toEqual(["secret-token"]);
  } finally {
    server.stop(true);
  }
});

test("after a restart, a remote that does not answer still shows when it last answered", async () => {
  const own = await startTestAppliance();
  const spare = await startTestAppliance();
  let restarted: TestAppliance | null = null;
  try {
    const token = (await spare.client.get<{ token: string }>("/api/remote/token")).body.token;
    const https = spare.app.httpsUrl();
    const { body } = await own.client.post<{ id: number }>("/api/remote/new", {
      address: https,
      token,
      remark: "spare",
      fingerprint: await presentedBy(https),
    });
    const listOf = (a: TestAppliance) =>
      a.client.get<Listed[]>("/api/remote/list?refresh=1").then((r) => r.body.find((x) => x.id === body.id));
    const online = await eventually(
      () => listOf(own),
      (r) => r?.state === "online",
      "the spare remote is online",
    );
    expect(online?.last_seen).toBeTruthy();
    await spare.close();
    await own.close(true);
    restarted = await startTestAppliance(own.dataDir);
    const after = await listOf(restarted as TestAppliance);
    expect(after).toMatchObject({ state: "offline", last_seen: online?.last_seen ?? "" });
  } finally {
    await (restarted ?? own).close();
  }
});
