import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestAppliance, type TestAppliance } from "../support/appliance.ts";

type ErrorBody = { error: { key: string; message: string } };

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

const channels = {
  webhook: { enabled: true, url: "https://hooks.example/pithead", secret: "hmac-secret" },
  telegram: { enabled: true, base_url: "", token: "42:bot-token", chat_id: "-100" },
  email: {
    enabled: true,
    host: "smtp.example",
    port: 587,
    starttls: true,
    user: "ops",
    password: "mail-password",
    from: "pithead@example.com",
    to: "a@example.com,b@example.com",
  },
};

interface AuditPage {
  items: { object: string; changes: { field: string; old: unknown; new: unknown }[] }[];
}

describe("alert settings", () => {
  test("rules: defaults for what an older version stored, validation with the catalogue key", async () => {
    t.app.ctx.settings.set("alert", { device_offline: true, hashrate_drop: 20, push_key: "k" });
    const read = await t.client.get("/api/warning/setting");
    expect(read.body).toMatchObject({
      device_offline: true,
      hashrate_drop: 20,
      offline_grace_s: 120,
      lang: "en",
    });
    for (const bad of [{ offline_grace_s: 0 }, { lang: "de" }, { hashrate_drop: 101 }, { cert_days: 1.5 }]) {
      const res = await t.client.post<ErrorBody>("/api/warning/setting", bad);
      expect(res.status).toBe(400);
      expect(res.body.error.key).toBe("lang.alert.err_save");
    }
    expect((await t.client.get("/api/warning/setting")).body).toEqual(read.body);
  });

  test("channels: secrets are never read back, a masked secret keeps the stored one, changes are audited", async () => {
    const saved = await t.client.post<typeof channels>("/api/warning/channels", channels);
    expect(saved.status).toBe(200);
    const read = await t.client.get<typeof channels>("/api/warning/channels");
    expect(read.body.webhook.secret).toBe("********");
    expect(read.body.telegram.token).toBe("********");
    expect(read.body.email.password).toBe("********");
    expect(JSON.stringify(read.body)).not.toMatch(/hmac-secret|bot-token|mail-password/);
    // the form sends the masks back with another change: the secrets stay
    await t.client.post("/api/warning/channels", { ...read.body, email: { ...read.body.email, port: 465 } });
    const stored = t.app.ctx.settings.get<typeof channels>("alert_channels", channels);
    expect(stored.webhook.secret).toBe("hmac-secret");
    expect(stored.telegram.token).toBe("42:bot-token");
    expect(stored.email).toMatchObject({ password: "mail-password", port: 465 });
    const audit = await t.client.get<AuditPage>("/api/audit?q=alert_channels");
    const entries = audit.body.items.filter((e) => e.object === "setting alert_channels");
    expect(entries.length).toBe(2);
    expect(JSON.stringify(entries)).not.toMatch(/hmac-secret|bot-token|mail-password/);
    expect(entries[0]?.changes).toEqual([{ field: "email.port", old: 587, new: 465 }]);
  });

  test("channels: an enabled channel needs its fields; a pinned mail certificate is a SHA-256 fingerprint", async () => {
    for (const bad of [
      { webhook: { enabled: true, url: "" } },
      { webhook: { enabled: true, url: "ftp://x" } },
      { telegram: { enabled: true, token: "t", chat_id: "" } },
      { email: { enabled: true, host: "h", from: "pithead", to: "a@b" } },
      { email: { enabled: true, host: "h", from: "p@h", to: "a@b, not an address" } },
      { email: { tls_fingerprint: "AB:CD:EF" } },
    ]) {
      const res = await t.client.post<ErrorBody>("/api/warning/channels", bad);
      expect(res.status).toBe(400);
      expect(res.body.error.key).toBe("lang.alert.err_save");
    }
  });

  test("history: bad limits are refused", async () => {
    expect((await t.client.get("/api/warning/history?limit=0")).status).toBe(400);
    expect((await t.client.get("/api/warning/history?limit=abc")).status).toBe(400);
    const ok = await t.client.get<{ items: unknown[]; queue: { pending: number } }>(
      "/api/warning/history?limit=5",
    );
    expect(ok.body.queue.pending).toBe(0);
  });
});
