/**
 * Issue 8, updates: `?force=1` alone no longer installs an older release. A downgrade needs a fresh
 * password (the upload route's re-authentication) and a written reason, which the audit log keeps with
 * the change, or with the refusal. The refusals are tried in-process; the downgrade that goes through
 * runs the appliance as its own process (it exits to restart into the older release) with a throwaway
 * release key, and the audit table is read from its database file afterwards.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { login } from "../delivery/login.ts";
import { signedBundle, throwawayKeys } from "../delivery/ota-fixtures.ts";
import { startTestAppliance, type TestAppliance, tempDir } from "../support/appliance.ts";
import { BUN, spawnAppliance } from "../support/process.ts";

const keys = throwawayKeys();
let older: Uint8Array;
let offset = 0;
let t: TestAppliance;
beforeAll(async () => {
  older = await signedBundle("0.0.1", keys.privateKey);
  t = await startTestAppliance(undefined, true, { clock: () => Date.now() + offset });
});
afterAll(() => t.close());

function upload(base: string, token: string, query: string, reason?: string): Promise<Response> {
  const form = new FormData();
  form.append("bundle", new Blob([new Uint8Array(older)]), "older.bundle");
  if (reason !== undefined) form.append("reason", reason);
  return fetch(`${base}/api/update/upload${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { key: string; detail?: string } }).error;

type Entry = { action: string; object: string; outcome: string; detail: string; changes: unknown[] };
const auditEntries = async () => (await t.client.get<{ items: Entry[] }>("/api/audit?limit=500")).body.items;

describe("downgrade over the API", () => {
  test("?force=1 without a written reason is refused before the bundle is looked at, and audited", async () => {
    for (const reason of [undefined, "", "   ", "x".repeat(501)]) {
      const res = await upload(t.app.url(), t.client.token, "?force=1", reason);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ key: "lang.update.err_reason", field: "reason" });
    }
    const refused = (await auditEntries()).filter(
      (e) => e.action === "POST /api/update/upload" && e.outcome === "refused",
    );
    expect(refused).toHaveLength(4);
    expect(refused[0]?.detail).toContain("without a written reason");
    // nothing was installed: only the running program is a release
    const releases = (await t.client.get<{ kind: string }[]>("/api/releases")).body;
    expect(releases.map((r) => r.kind)).toEqual(["builtin"]);
  });

  test("with a reason, a session whose password is older than 5 minutes must re-authenticate first", async () => {
    offset += 6 * 60_000;
    const stale = await upload(t.app.url(), t.client.token, "?force=1", "roll back the firmware fix");
    expect(stale.status).toBe(403);
    expect((await errorOf(stale)).key).toBe("lang.err.reauth");
    expect((await t.client.reauth(t.password)).status).toBe(200);
    // now the bundle itself is checked: this one is not signed with the release key, and the refusal
    // is kept with the reason that was given
    const res = await upload(t.app.url(), t.client.token, "?force=1", "roll back the firmware fix");
    expect(res.status).toBe(400);
    expect((await errorOf(res)).key).toBe("lang.update.err_refused");
    const last = (await auditEntries()).find((e) => e.detail.includes("roll back the firmware fix"));
    expect(last).toMatchObject({ action: "POST /api/update/upload", outcome: "refused" });
  });
});

describe("a downgrade that goes through", () => {
  test("is installed and the audit log keeps who, what and the reason", async () => {
    const dataDir = tempDir();
    const main = join(import.meta.dir, "../../appliance/main.ts");
    const release = `PITHEAD_RELEASE_PUBKEY=${JSON.stringify(keys.publicKey)}`;
    const { proc, url } = await spawnAppliance(dataDir, [BUN, "--define", release, main]);
    try {
      const base = url.replace(/\/$/, "");
      const password = readFileSync(join(dataDir, "initial-password"), "utf8").trim();
      const token = await login(base, password, "1234");
      const res = await upload(base, token, "?force=1", "0.1.0 drops our S19 miners; back to 0.0.1");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ from: "0.1.0", to: "0.0.1", restart: true });
      // the appliance exits to be restarted into the older release
      expect(await proc.exited).toBe(75);
      const db = new Database(join(dataDir, "pithead.db"), { readonly: true });
      const row = db
        .query<{ credential: string; object: string; detail: string; changes: string }, []>(
          "SELECT credential, object, detail, changes FROM audit_log WHERE object = 'release'",
        )
        .get();
      db.close();
      expect(row?.credential).toBe("admin");
      expect(row?.detail).toBe("downgrade allowed; reason: 0.1.0 drops our S19 miners; back to 0.0.1");
      expect(JSON.parse(row?.changes ?? "[]")).toContainEqual({
        field: "version",
        old: "0.1.0",
        new: "0.0.1",
      });
    } finally {
      proc.kill();
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
