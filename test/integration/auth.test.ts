import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { allRoutes } from "../../appliance/web/api/index.ts";
import {
  Client,
  encryptPassword,
  startTestAppliance,
  TEST_CAPTCHA,
  type TestAppliance,
} from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

describe("first start", () => {
  test("makes a random admin password kept 0600 in the data dir and flags it as default", async () => {
    const file = join(t.dataDir, "initial-password");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(t.password).toMatch(/^[A-Za-z0-9]{16}$/);
    const s = await t.client.get("/api/_/session");
    expect(s.body).toMatchObject({ username: "admin", default_password: true, route_set: false });
  });
});

describe("login", () => {
  test("answers a token, its expiry and the default-password warning", async () => {
    const c = new Client(t.app.url());
    const res = await c.login("admin", t.password);
    expect(res.status).toBe(200);
    expect(res.body.default_password).toBe(true);
    expect(Date.parse(String(res.body.expires_at))).toBeGreaterThan(Date.now());
  });

  test("a wrong captcha is refused with 'verification failed' and burns the challenge", async () => {
    const c = new Client(t.app.url());
    const { body: key } = await c.get<{ pem: string }>("/api/_/pubkey");
    const { body: cap } = await c.get<{ id: string; image: string }>("/api/_/captcha");
    expect(cap.image.startsWith("data:image/")).toBe(true);
    const attempt = (captcha: string) =>
      c.post("/api/_/login", {
        username: "admin",
        password: encryptPassword(key.pem, `${cap.id}:${t.password}`),
        captcha_id: cap.id,
        captcha,
      });
    const wrong = await attempt("0000");
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      error: { key: "lang.login.err_captcha", message: "Verification failed" },
    });
    // the same challenge with the right answer no longer works: single use
    const again = await attempt(TEST_CAPTCHA);
    expect(again.status).toBe(400);
    expect((again.body.error as { key: string }).key).toBe("lang.login.err_captcha");
  });

  test("a wrong password gets 'Information verification failed'", async () => {
    const c = new Client(t.app.url());
    const res = await c.login("admin", "not-the-password");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { key: "lang.login.err_info", message: "Information verification failed" },
    });
  });

  test("a password not encrypted with the appliance key is refused", async () => {
    const c = new Client(t.app.url());
    const { body: cap } = await c.get<{ id: string }>("/api/_/captcha");
    const res = await c.post("/api/_/login", {
      username: "admin",
      password: btoa(t.password),
      captcha_id: cap.id,
      captcha: TEST_CAPTCHA,
    });
    expect(res.status).toBe(400);
    expect((res.body.error as { key: string }).key).toBe("lang.login.err_password_cipher");
  });

  test("missing fields name the login requirement", async () => {
    const res = await new Client(t.app.url()).post("/api/_/login", { username: "admin" });
    expect(res.status).toBe(400);
    expect((res.body.error as { key: string }).key).toBe("lang.login.err_required");
  });

  test("logins and failures are written to the operation log", async () => {
    const log = await t.client.get<{ message: string }[]>("/api/operation/log");
    const messages = log.body.map((r) => r.message);
    expect(messages.some((m) => m.startsWith("login successful"))).toBe(true);
    expect(messages.some((m) => m.startsWith("login failed"))).toBe(true);
  });
});

describe("tokens", () => {
  test("every non-public route answers 401 without a token or with a bad one", async () => {
    const anon = new Client(t.app.url());
    const bad = new Client(t.app.url());
    bad.token = "forged-token";
    const routes = allRoutes.filter((r) => !r.public);
    expect(routes.length).toBeGreaterThan(60);
    for (const r of routes) {
      const path = r.path.replace(/:[a-z_]+/g, "1");
      for (const c of [anon, bad]) {
        const res = await c.call(r.method, path, r.method === "GET" ? undefined : {});
        expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
          route: `${r.method} ${r.path}`,
          status: 401,
        });
      }
    }
  });

  test("logout revokes the token", async () => {
    const c = new Client(t.app.url());
    await c.login("admin", t.password);
    expect((await c.get("/api/ports")).status).toBe(200);
    expect((await c.post("/api/_/logout")).status).toBe(200);
    expect((await c.get("/api/ports")).status).toBe(401);
  });
});

describe("change password", () => {
  test("checks the current password, confirms the new one, signs every session out and clears the warning", async () => {
    const mismatch = await t.client.changePassword("admin", t.password, "new-secret-1", "new-secret-2");
    expect(mismatch.status).toBe(400);
    const missing = await t.client.post("/api/_/changepassword", { username: "admin" });
    expect(missing.body).toMatchObject({
      error: { key: "lang.err.config_check", message: "Configuration check failed" },
    });
    const wrongCurrent = await t.client.changePassword("admin", "wrong", "new-secret-1");
    expect((wrongCurrent.body.error as { key: string }).key).toBe("lang.err.config_check");

    const res = await t.client.changePassword("operator", t.password, "new-secret-1");
    expect(res.status).toBe(200);
    expect((await t.client.get("/api/ports")).status).toBe(401);
    expect(existsSync(join(t.dataDir, "initial-password"))).toBe(false);
    const again = await t.client.login("operator", "new-secret-1");
    expect(again.status).toBe(200);
    expect(again.body.default_password).toBe(false);
    expect((await t.client.login("admin", t.password)).status).toBe(400);
  });
});

describe("rate limit", () => {
  test("after five failures the address waits, with a retry time", async () => {
    const c = new Client(t.app.url());
    let last = await c.login("operator", "wrong");
    for (let i = 0; i < 6 && last.status !== 429; i++) last = await c.login("operator", "wrong");
    expect(last.status).toBe(429);
    const err = last.body.error as { key: string; retry_after: number };
    expect(err.key).toBe("lang.login.err_throttled");
    expect(err.retry_after).toBeGreaterThan(0);
    // even the right password waits
    expect((await c.login("operator", "new-secret-1")).status).toBe(429);
  });
});
