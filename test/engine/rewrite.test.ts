import { describe, expect, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { joinUser, rewriteIdentity, splitUser } from "../../appliance/engine/rewrite.ts";
import { parseEndpoint } from "../../appliance/engine/transport/endpoint.ts";
import { makePort } from "../support/stratum/port-fixture.ts";

describe("identity rewriting", () => {
  test("splits at the first dot and joins back", () => {
    expect(splitUser("bc1q.rig.01")).toEqual({ wallet: "bc1q", name: "rig.01" });
    expect(splitUser("account")).toEqual({ wallet: "account", name: "" });
    expect(joinUser({ wallet: "a", name: "" })).toBe("a");
  });

  test("wallet replacement, name replacement with * and a list, unify switches, Pool mode", () => {
    const base = { pool_address: "127.0.0.1:1" };
    const p = makePort({ ...base, pattern_addr: "bad1\r\nbad2", replace_addr: "good" });
    expect(rewriteIdentity({ wallet: "bad2", name: "r" }, p)).toEqual({ wallet: "good", name: "r" });
    expect(rewriteIdentity({ wallet: "ok", name: "r" }, p)).toEqual({ wallet: "ok", name: "r" });
    const names = makePort({ ...base, setting: { sd: "r1\nr2", st: "x" } });
    expect(rewriteIdentity({ wallet: "w", name: "r2" }, names).name).toBe("x");
    expect(rewriteIdentity({ wallet: "w", name: "r3" }, names).name).toBe("r3");
    const all = makePort({ ...base, setting: { sd: "*", st: "x" } });
    expect(rewriteIdentity({ wallet: "w", name: "anything" }, all).name).toBe("x");
    const unify = makePort({ ...base, proxy_addr: "U", proxy_device: "D", setting: { cp_mode: 1 } });
    expect(rewriteIdentity({ wallet: "w", name: "n" }, unify)).toEqual({ wallet: "U", name: "n" });
    const pool = makePort({ ...base, proxy_addr: "U", proxy_device: "D", mode: ProxyMode.POOL });
    expect(rewriteIdentity({ wallet: "w", name: "n" }, pool)).toEqual({ wallet: "U", name: "D" });
  });

  test("endpoints: host:port, schemes, IPv6, bad input", () => {
    expect(parseEndpoint("pool.example:3333", 0)).toEqual({ host: "pool.example", port: 3333, tls: false });
    expect(parseEndpoint("stratum+ssl://pool.example:443", 0)).toEqual({
      host: "pool.example",
      port: 443,
      tls: true,
    });
    expect(parseEndpoint("[::1]:3333", 1)).toEqual({ host: "::1", port: 3333, tls: true });
    expect(parseEndpoint("pool.example", 0)).toBeNull();
    expect(parseEndpoint("pool.example:70000", 0)).toBeNull();
  });
});
