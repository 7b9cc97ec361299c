import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { FREE_FAILURES, MAX_WAIT_S } from "../../../appliance/auth/account-backoff.ts";
import {
  CAPTCHA_TTL_MS,
  CaptchaService,
  MAX_ADDRESSES,
  MAX_PER_ADDRESS,
} from "../../../appliance/auth/captcha.ts";
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
    const { id, code } = captcha.create("127.0.0.1");
    c.advance(CAPTCHA_TTL_MS + 1);
    expect(captcha.check(id, code)).toBe(false);
  });

  test("is case-insensitive and single use", () => {
    const captcha = new CaptchaService(() => "AbCd");
    const { id } = captcha.create("127.0.0.1");
    expect(captcha.check(id, "abcd")).toBe(true);
    expect(captcha.check(id, "abcd")).toBe(false);
  });
});

describe("captcha quota", () => {
  test("an address holds at most MAX_PER_ADDRESS pending captchas: asking for more drops its oldest", () => {
    const captcha = new CaptchaService(() => "abcd");
    const ids = Array.from({ length: MAX_PER_ADDRESS + 1 }, () => captcha.create("10.0.0.1").id);
    expect(captcha.check(ids[0] as string, "abcd")).toBe(false);
    for (const id of ids.slice(1)) expect(captcha.check(id, "abcd")).toBe(true);
  });

  test("a flood from one address leaves another address's captcha alone", () => {
    const captcha = new CaptchaService(() => "abcd");
    const admin = captcha.create("10.0.0.1").id;
    for (let i = 0; i < 10_000; i++) captcha.create("10.0.0.66");
    expect(captcha.check(admin, "abcd")).toBe(true);
  });

  test("past MAX_ADDRESSES the address that asked least recently loses its captchas", () => {
    const captcha = new CaptchaService(() => "abcd");
    const first = captcha.create("10.1.0.0").id;
    const second = captcha.create("10.1.0.1").id;
    captcha.create("10.1.0.0");
    for (let i = 2; i < MAX_ADDRESSES + 1; i++) captcha.create(`10.2.${i >> 8}.${i & 255}`);
    expect(captcha.check(second, "abcd")).toBe(false);
    expect(captcha.check(first, "abcd")).toBe(true);
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

describe("account backoff", () => {
  test("wrong passwords from any address: after FREE_FAILURES each try waits 2^n s, capped at MAX_WAIT_S", () => {
    const c = clock();
    const t = new LoginThrottle(c.now);
    for (let i = 0; i < FREE_FAILURES - 1; i++) t.failPassword(`10.0.1.${i}`);
    expect(t.accountRetryAfter("10.0.9.9")).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      t.failPassword(`10.0.2.${i}`);
      const wait = t.accountRetryAfter("10.0.9.9");
      waits.push(wait);
      c.advance(wait * 1000);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, MAX_WAIT_S, MAX_WAIT_S, MAX_WAIT_S]);
    // the per-address count of those addresses saw one failure each: none of them is locked by itself
    expect(t.retryAfter("10.0.2.0")).toBe(0);
  });

  test("a wrong captcha does not count against the account; a success resets it", () => {
    const c = clock();
    const t = new LoginThrottle(c.now);
    for (let i = 0; i < 20; i++) t.fail(`10.0.3.${i}`);
    expect(t.accountRetryAfter("10.0.9.9")).toBe(0);
    for (let i = 0; i < FREE_FAILURES; i++) t.failPassword(`10.0.4.${i}`);
    expect(t.accountRetryAfter("10.0.9.9")).toBe(2);
    t.succeed("10.0.5.1");
    expect(t.accountRetryAfter("10.0.9.9")).toBe(0);
  });

  test("an address the admin logged in from is not held back by the account's backoff", () => {
    const c = clock();
    const t = new LoginThrottle(c.now);
    t.succeed("192.168.1.10");
    for (let i = 0; i < FREE_FAILURES + 3; i++) t.failPassword(`10.0.6.${i}`);
    expect(t.accountRetryAfter("10.0.9.9")).toBeGreaterThan(0);
    expect(t.accountRetryAfter("192.168.1.10")).toBe(0);
  });
});
