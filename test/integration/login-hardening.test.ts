/**
 * Issue 8, login: the account backs off whatever address the wrong passwords come from, a flood of
 * captchas from one address cannot push out another's, a login ciphertext is bound to its captcha, and
 * the password change is sealed and throttled like the login. Clients on many addresses are played
 * from 127.0.0.0/8; the appliance's clock is frozen and moved by the test, so no wait is timed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FREE_FAILURES } from "../../appliance/auth/account-backoff.ts";
import { MAX_PER_ADDRESS } from "../../appliance/auth/captcha.ts";
import {
  encryptPassword,
  startTestAppliance,
  TEST_CAPTCHA,
  type TestAppliance,
} from "../support/appliance.ts";
import { callFrom } from "../support/from-address.ts";

let now = Date.now();
let t: TestAppliance;
let pem = "";
beforeAll(async () => {
  t = await startTestAppliance(undefined, true, { clock: () => now });
  pem = (await t.client.get<{ pem: string }>("/api/_/pubkey")).body.pem;
});
afterAll(() => t.close());

const errorOf = (body: unknown) =>
  (body as { error: { key: string; retry_after?: number; field?: string } }).error;

const captchaFor = async (address: string) =>
  (await callFrom<{ id: string }>(address, t.app.url(), "GET", "/api/_/captcha")).body.id;

function loginWith(address: string, captchaId: string, password: string, sealedFor = captchaId) {
  return callFrom(address, t.app.url(), "POST", "/api/_/login", {
    username: "admin",
    password: encryptPassword(pem, `${sealedFor}:${password}`),
    captcha_id: captchaId,
    captcha: TEST_CAPTCHA,
  });
}

const loginFrom = async (address: string, password: string) =>
  loginWith(address, await captchaFor(address), password);

describe("per-account backoff", () => {
  test("wrong passwords from many addresses make the account wait 2^n s, up to 15 min", async () => {
    for (let i = 1; i <= FREE_FAILURES; i++) {
      expect(errorOf((await loginFrom(`127.0.1.${i}`, "wrong")).body).key).toBe("lang.login.err_info");
    }
    // an address that never failed, with the right password, waits too: it is the account that is held
    const held = await loginFrom("127.0.1.100", t.password);
    expect(held.status).toBe(429);
    expect(errorOf(held.body)).toMatchObject({ key: "lang.login.err_throttled_account", retry_after: 2 });
    const waits: number[] = [];
    let wait = 2;
    for (let n = 1; n <= 12; n++) {
      now += wait * 1000;
      expect(errorOf((await loginFrom(`127.0.2.${n}`, "wrong")).body).key).toBe("lang.login.err_info");
      const probe = await loginFrom(`127.0.3.${n}`, "wrong");
      expect(probe.status).toBe(429);
      wait = errorOf(probe.body).retry_after ?? 0;
      waits.push(wait);
    }
    expect(waits).toEqual([4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900]);
  });

  test("the admin's own address is not held back, and its success lifts the backoff", async () => {
    expect((await loginFrom("127.0.3.99", t.password)).status).toBe(429);
    // 127.0.0.1 logged in at the start of this file
    expect((await loginFrom("127.0.0.1", t.password)).status).toBe(200);
    expect((await loginFrom("127.0.3.99", t.password)).status).toBe(200);
  });
});

describe("captcha quota per address", () => {
  test("1,000 captcha requests from one address do not evict another address's pending captcha", async () => {
    const admins = await captchaFor("127.0.5.1");
    const flood: string[] = [];
    for (let i = 0; i < 1000; i++) flood.push(await captchaFor("127.0.5.2"));
    // the flooding address keeps only its newest few
    expect(errorOf((await loginWith("127.0.5.2", flood[0] as string, t.password)).body).key).toBe(
      "lang.login.err_captcha",
    );
    expect(
      errorOf((await loginWith("127.0.5.2", flood[999 - MAX_PER_ADDRESS] as string, t.password)).body).key,
    ).toBe("lang.login.err_captcha");
    expect((await loginWith("127.0.5.2", flood[1000 - MAX_PER_ADDRESS] as string, t.password)).status).toBe(
      200,
    );
    expect((await loginWith("127.0.5.1", admins, t.password)).status).toBe(200);
  });
});

describe("login ciphertext bound to its captcha", () => {
  test("a recorded login body sent again with a new captcha is refused", async () => {
    const first = await captchaFor("127.0.6.1");
    const body = {
      username: "admin",
      password: encryptPassword(pem, `${first}:${t.password}`),
      captcha_id: first,
      captcha: TEST_CAPTCHA,
    };
    expect((await callFrom("127.0.6.1", t.app.url(), "POST", "/api/_/login", body)).status).toBe(200);
    const replay = await callFrom("127.0.6.2", t.app.url(), "POST", "/api/_/login", {
      ...body,
      captcha_id: await captchaFor("127.0.6.2"),
    });
    expect(replay.status).toBe(400);
    expect(errorOf(replay.body)).toMatchObject({ key: "lang.login.err_password_cipher", field: "password" });
    // the password alone, without a captcha id (the earlier wire format), is refused as well
    const bare = await captchaFor("127.0.6.3");
    const unbound = await callFrom("127.0.6.3", t.app.url(), "POST", "/api/_/login", {
      ...body,
      password: encryptPassword(pem, t.password),
      captcha_id: bare,
    });
    expect(errorOf(unbound.body).key).toBe("lang.login.err_password_cipher");
  });
});

describe("password change", () => {
  const seal = (challenge: string, password: string) => encryptPassword(pem, `${challenge}:${password}`);
  const changeFrom = async (address: string, current: string, next = "new-secret-1") => {
    const { body } = await callFrom<{ challenge: string }>(
      address,
      t.app.url(),
      "GET",
      "/api/_/changepassword",
      undefined,
      t.client.token,
    );
    const change = {
      username: "admin",
      rawpassword: seal(body.challenge, current),
      password: seal(body.challenge, next),
      repassword: seal(body.challenge, next),
    };
    return {
      change,
      reply: await callFrom(address, t.app.url(), "POST", "/api/_/changepassword", change, t.client.token),
    };
  };

  test("a clear-text body is refused with a message that says the passwords must be encrypted", async () => {
    expect((await t.client.login("admin", t.password)).status).toBe(200);
    const res = await t.client.post("/api/_/changepassword", {
      username: "admin",
      rawpassword: t.password,
      password: "new-secret-1",
      repassword: "new-secret-1",
    });
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ key: "lang.user.err_cipher", field: "rawpassword" });
    expect(String((res.body as { error: { message: string } }).error.message)).toContain("encrypted");
  });

  test("a recorded change sent again is refused: its challenge served once", async () => {
    const { change, reply } = await changeFrom("127.0.0.1", "wrong");
    expect(errorOf(reply.body)).toMatchObject({ key: "lang.err.config_check", field: "rawpassword" });
    const again = await t.client.post("/api/_/changepassword", change);
    expect(errorOf(again.body).key).toBe("lang.user.err_cipher");
    expect((await t.client.login("admin", t.password)).status).toBe(200);
  });

  test("wrong current passwords from many addresses hold the account back", async () => {
    for (let i = 1; i <= FREE_FAILURES; i++) {
      const { reply } = await changeFrom(`127.0.7.${i}`, "wrong");
      expect(errorOf(reply.body).key).toBe("lang.err.config_check");
    }
    const { reply } = await changeFrom("127.0.7.6", t.password);
    expect(reply.status).toBe(429);
    expect(errorOf(reply.body)).toMatchObject({ key: "lang.login.err_throttled_account", retry_after: 2 });
    // the admin's own address logs in; that lifts the account's backoff
    expect((await t.client.login("admin", t.password)).status).toBe(200);
  });

  test("6 wrong current passwords from one address: the sixth try is throttled", async () => {
    for (let i = 1; i <= 5; i++) {
      const { reply } = await changeFrom("127.0.8.1", "wrong");
      expect(errorOf(reply.body).key).toBe("lang.err.config_check");
    }
    const { reply } = await changeFrom("127.0.8.1", t.password);
    expect(reply.status).toBe(429);
    expect(errorOf(reply.body).key).toBe("lang.login.err_throttled");
    expect((await t.client.login("admin", t.password)).status).toBe(200);
    expect((await t.client.get("/api/ports")).status).toBe(200);
  });
});
