/**
 * The attack of issue 8, replayed: a quiet fee-wallet swap. A session left open for more than five
 * minutes cannot make it without the password; the group-control token cannot make it at all; every
 * attempt and the real change are in the audit log (who, from where, old → new), which a flood of
 * requests does not roll over and whose hash chain `pithead audit verify` checks in the file.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { BUN } from "../support/process.ts";

const MINUTE = 60_000;
const ROOT = join(import.meta.dir, "../..");
let t: TestAppliance;
let offset = 0;

interface Entry {
  id: number;
  credential: string;
  session: string;
  address: string;
  action: string;
  object: string;
  outcome: string;
  detail: string;
  changes: { field: string; old: unknown; new: unknown }[];
}

beforeAll(async () => {
  t = await startTestAppliance(undefined, true, { clock: () => Date.now() + offset });
});
afterAll(() => t.close().catch(() => rmSync(t.dataDir, { recursive: true, force: true })));

const auditFor = async (q: string) =>
  (await t.client.get<{ total: number; items: Entry[] }>(`/api/audit?q=${encodeURIComponent(q)}`)).body;

async function asControl(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${t.app.url()}${path}`, {
    method,
    headers: { "x-api-token": token, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { error?: { key: string } } };
}

function verify(dataDir: string) {
  const run = Bun.spawnSync([BUN, join(ROOT, "appliance/main.ts"), "audit", "verify", "--data-dir", dataDir]);
  return { code: run.exitCode, out: run.stdout.toString() };
}

let walletId = 0;
let portNumber = 0;

describe("a fee-wallet swap", () => {
  test("a session idle past 5 minutes must re-authenticate; the control token is refused; both are audited", async () => {
    portNumber = freePort();
    const created = await t.client.post<{ id: number }>("/api/port/new", portBody({ port: portNumber }));
    expect(created.status).toBe(200);
    const port = (await t.client.get<{ wallets: { id: number }[] }>(`/api/port/${created.body.id}`)).body;
    walletId = port.wallets[0]?.id ?? 0;
    const control = (await t.client.get<{ token: string }>("/api/remote/token")).body.token;

    offset += 6 * MINUTE;
    const swap = {
      addr: "bc1qattacker",
      device: "fee1",
      pool_address: "127.0.0.1:1",
      pool_protocol: 0,
      ratio: 0.02,
    };
    const stale = await t.client.post<{ error: { key: string } }>(`/api/wallet/${walletId}`, swap);
    expect(stale.status).toBe(403);
    expect(stale.body.error.key).toBe("lang.err.reauth");
    expect((await t.client.get("/api/remote/token")).status).toBe(403);

    const byToken = await asControl(control, "POST", `/api/wallet/${walletId}`, swap);
    expect(byToken.status).toBe(403);
    expect(byToken.body.error?.key).toBe("lang.err.scope");
    // starting and stopping ports by group control needs no password: not a flagged route
    expect((await asControl(control, "POST", `/api/port/${created.body.id}/stop`)).status).toBe(200);

    const after = (await t.client.get<{ wallets: { addr: string }[] }>(`/api/port/${created.body.id}`)).body;
    expect(after.wallets[0]?.addr).toBe("bc1qfee");

    const refused = (await auditFor(`/api/wallet/${walletId}`)).items;
    expect(refused.map((e) => [e.credential, e.address, e.action, e.outcome])).toEqual([
      ["control", "127.0.0.1", `POST /api/wallet/${walletId}`, "refused"],
      ["admin", "127.0.0.1", `POST /api/wallet/${walletId}`, "refused"],
    ]);
    expect(refused[1]?.detail).toContain("re-authentication required");
    expect(refused[1]?.session).toMatch(/^[0-9a-f]{8}$/);
  });

  test("after re-authenticating (a wrong password first) the change goes through, recorded old → new", async () => {
    const wrong = await t.client.reauth("not-the-password");
    expect(wrong.status).toBe(400);
    expect((wrong.body as { error: { key: string } }).error.key).toBe("lang.reauth.err_password");
    const cipher = await t.client.reauthCipher(t.password);
    expect((await t.client.post("/api/_/reauth", { password: cipher })).status).toBe(200);
    // a ciphertext seen on the wire cannot be sent again: its challenge served once
    const replay = await t.client.post<{ error: { key: string } }>("/api/_/reauth", { password: cipher });
    expect(replay.body.error.key).toBe("lang.login.err_password_cipher");
    const swap = {
      addr: "bc1qnew",
      device: "fee1",
      pool_address: "127.0.0.1:1",
      pool_protocol: 0,
      ratio: 0.03,
    };
    expect((await t.client.post(`/api/wallet/${walletId}`, swap)).status).toBe(200);

    const entries = (await auditFor(`/api/wallet/${walletId}`)).items;
    const change = entries.find((e) => e.outcome === "changed");
    expect(change?.credential).toBe("admin");
    expect(change?.object).toBe(`fee wallet ${walletId} of port ${portNumber}`);
    expect(change?.changes).toEqual([
      { field: "addr", old: "bc1qfee", new: "bc1qnew" },
      { field: "ratio", old: 0.02, new: 0.03 },
    ]);
    expect((await auditFor("re-authentication with a wrong password")).total).toBe(1);
    // the window runs again from the re-authentication
    offset += 6 * MINUTE;
    expect((await t.client.post(`/api/wallet/${walletId}`, swap)).status).toBe(403);
  });

  test("6,000 cheap requests do not roll the entry out", async () => {
    const burst = Array.from({ length: 6000 }, (_, i) => i);
    for (let i = 0; i < burst.length; i += 50)
      await Promise.all(burst.slice(i, i + 50).map(() => t.client.post("/api/failed/reset")));
    const entries = (await auditFor("bc1qnew")).items;
    expect(entries.map((e) => e.outcome)).toContain("changed");
    const csv = await fetch(`${t.app.url()}/api/audit/export?q=bc1qnew`, {
      headers: { authorization: `Bearer ${t.client.token}` },
    }).then((r) => r.text());
    expect(csv.split("\r\n")[0]).toBe(
      "id,at_utc,credential,session,address,action,object,outcome,detail,changes,prev_hash,hash",
    );
    expect(csv).toContain("addr: bc1qfee → bc1qnew; ratio: 0.02 → 0.03");
  });
});

describe("pithead audit verify", () => {
  test("an untouched file verifies; one edited row makes it fail and name that row", async () => {
    await t.app.stop();
    // a password reset from the command line is on record too, chained like the rest
    const reset = Bun.spawnSync([
      BUN,
      join(ROOT, "appliance/main.ts"),
      "reset-password",
      "--data-dir",
      t.dataDir,
    ]);
    expect(reset.exitCode).toBe(0);
    const intact = verify(t.dataDir);
    expect(intact.code).toBe(0);
    expect(intact.out).toMatch(/audit log intact: \d+ entries, head [0-9a-f]{64}/);

    const db = new Database(join(t.dataDir, "pithead.db"));
    const cli = db
      .query<{ credential: string; object: string }, []>(
        "SELECT credential, object FROM audit_log ORDER BY id DESC LIMIT 1",
      )
      .get();
    expect(cli).toEqual({ credential: "cli", object: "admin account" });
    const row = db
      .query<{ id: number }, []>("SELECT id FROM audit_log WHERE changes LIKE '%bc1qnew%' LIMIT 1")
      .get();
    // what an attacker with the file would do: the trigger that refuses edits goes first
    expect(() => db.run("UPDATE audit_log SET changes = '[]' WHERE id = ?", [row?.id ?? 0])).toThrow();
    db.run("DROP TRIGGER audit_log_no_update");
    db.run("UPDATE audit_log SET changes = replace(changes, 'bc1qnew', 'bc1qfee') WHERE id = ?", [
      row?.id ?? 0,
    ]);
    db.close();
    const broken = verify(t.dataDir);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`audit log BROKEN at entry ${row?.id}`);
  });
});
