import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { CAPTCHA_TTL_MS, CaptchaService } from "../../../appliance/auth/captcha.ts";
import { LOCK_MS, LoginThrottle, MAX_FAILURES } from "../../../appliance/auth/login-throttle.ts";
import { REMEMBER_TTL_MS, TOKEN_TTL_MS, TokenService } from "../../../appliance/auth/tokens.ts";
import { AdminStore } from "../../../appliance/store/admin.ts";
import { migrate } from "../../../appliance/store/db.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("tokens", () => {
  test("expire after their lifetime; remember-account lasts longer", () => {
    const db = new Database(":memory:");
    migrate(db);
    const c = clock();
    const tokens = new TokenService(new AdminStore(db), c.now);
    const short = tokens.issue(false, "127.0.0.1").token;
    const long = tokens.issue(true, "127.0.0.1").token;
    c.advance(TOKEN_TTL_MS + 1);
    expect(tokens.valid(short)).toBe(false);
    expect(tokens.valid(long)).toBe(true);
    c.advance(REMEMBER_TTL_MS);
    expect(tokens.valid(long)).toBe(false);
  });

  test("are stored only as hashes", () => {
    const db = new Database(":memory:");
    migrate(db);
    const { token } = new TokenService(new AdminStore(db)).issue(false, "");
    const rows = db.query<{ token_hash: string }, []>("SELECT token_hash FROM tokens").all();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toContain(token);
  });
});

describe("captcha", () => {
  test("expires", () => {
    const c = clock();
    const captcha = new CaptchaService(() => "abcd", null, c.now);
    const { id, code } = captcha.create();
    c.advance(CAPTCHA_TTL_MS + 1);
    expect(captcha.check(id, code)).toBe(false);
  });

  test("is case-insensitive and single use", () => {
    const captcha = new CaptchaService(() => "AbCd");
    const { id } = captcha.create();
    expect(captcha.check(id, "abcd")).toBe(true);
    expect(captcha.check(id, "abcd")).toBe(false);
  });
});

describe("login throttle", () => {
  test("locks an address after MAX_FAILURES and releases it after LOCK_MS", () => {
    const c = clock();
    const t = new LoginThrottle(c.now);
    for (let i = 0; i < MAX_FAILURES - 1; i++) t.fail("127.0.0.2");
    expect(t.retryAfter("127.0.0.2")).toBe(0);
    t.fail("127.0.0.2");
    expect(t.retryAfter("127.0.0.2")).toBe(LOCK_MS / 1000);
    expect(t.retryAfter("127.0.0.3")).toBe(0);
    c.advance(LOCK_MS);
    expect(t.retryAfter("127.0.0.2")).toBe(0);
  });
});
