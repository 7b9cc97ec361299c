import { describe, expect, test } from "bun:test";
import { emptyForm, emptyWallet, type PortForm } from "../../../ui/src/lib/port-form.ts";
import {
  importKind,
  validateClient,
  validateHotWallets,
  validatePoolNodePort,
  validatePresetPool,
} from "../../../ui/src/lib/validate/forms.ts";
import { validatePort, validPercent, validPortNumber } from "../../../ui/src/lib/validate/port.ts";
import { routeToWire, validateRoute } from "../../../ui/src/lib/validate/route.ts";
import { validateChangeUser } from "../../../ui/src/lib/validate/user.ts";

const valid = (): PortForm => ({ ...emptyForm("BTC"), port: "3333", pool_address: "pool.example:3333" });
const keys = (f: PortForm) => validatePort(f).map((e) => `${e.field}${e.row ? `#${e.row}` : ""}:${e.key}`);

describe("port number (spec §5)", () => {
  test("1 to 65534 only, digits only", () => {
    expect(["1", "3333", "65534"].every(validPortNumber)).toBe(true);
    expect(["", "0", "65535", "-1", "3.5", "abc", "1e3"].some(validPortNumber)).toBe(false);
  });
  test("message key of the spec", () => {
    expect(keys({ ...valid(), port: "0" })).toEqual(["port:lang.proxy.err_port"]);
  });
});

describe("validatePort", () => {
  test("a minimal port is valid", () => expect(validatePort(valid())).toEqual([]));
  test("coin and main pool are required", () => {
    expect(keys({ ...valid(), currency: "", pool_address: "  " })).toEqual([
      "currency:lang.proxy.err_currency",
      "pool_address:lang.proxy.err_pool_address",
    ]);
  });
  test("max connections 0..65535", () => {
    expect(keys({ ...valid(), limit_connections: "65536" })).toEqual([
      "limit_connections:lang.proxy.err_limit",
    ]);
    expect(keys({ ...valid(), limit_connections: "0" })).toEqual([]);
  });
  test("Pool mode needs unified wallet and device name", () => {
    expect(keys({ ...valid(), mode: 2 })).toEqual([
      "proxy_addr:lang.proxy.err_unified_wallet",
      "proxy_device:lang.proxy.err_unified_device",
    ]);
  });
  test("fee row with a percent needs address, pool and device; percent 0 needs nothing", () => {
    const row = { ...emptyWallet(), percent: "2.5" };
    expect(keys({ ...valid(), wallets: [row] })).toEqual([
      "addr#1:lang.wallet.err_addr",
      "pool_address#1:lang.wallet.err_pool",
      "device#1:lang.wallet.err_device",
    ]);
    expect(keys({ ...valid(), wallets: [emptyWallet()] })).toEqual([]);
  });
  test("SOCKS5 credentials: both (up to 255 bytes each) or neither; not checked on other transports", () => {
    const socks = { ...valid(), listen: "SOCKS5" as const };
    expect(keys({ ...socks, socksUser: "u" })).toEqual(["socks_password:lang.proxy.err_socks_auth"]);
    expect(keys({ ...socks, socksPassword: "p" })).toEqual(["socks_user:lang.proxy.err_socks_auth"]);
    expect(keys({ ...socks, socksUser: "é".repeat(128), socksPassword: "p" })).toEqual([
      "socks_user:lang.proxy.err_socks_auth",
    ]);
    expect(keys({ ...socks, socksUser: "u", socksPassword: "p" })).toEqual([]);
    expect(keys({ ...valid(), socksUser: "u" })).toEqual([]);
  });
  test("Compatible mode does not ask for the fee pool", () => {
    const row = { ...emptyWallet(), percent: "1", addr: "w", device: "d" };
    expect(keys({ ...valid(), mode: 1, wallets: [row] })).toEqual([]);
  });
  test("percent 0..100 in steps of 0.01", () => {
    expect(["0", "0.01", "99.99", "100"].every(validPercent)).toBe(true);
    expect(["100.01", "0.001", "-1", "x", ""].some(validPercent)).toBe(false);
  });
  test("at most ten fee wallets", () => {
    const rows = Array.from({ length: 11 }, emptyWallet);
    expect(keys({ ...valid(), wallets: rows })).toEqual(["wallets:lang.wallet.err_max"]);
  });
  test("replace wallet and replace name: both or neither", () => {
    expect(keys({ ...valid(), pattern_addr: "a\nb" })).toEqual([
      "replace_addr:lang.proxy.err_replace_wallet",
    ]);
    expect(keys({ ...valid(), st: "x" })).toEqual(["sd:lang.proxy.err_replace_name"]);
    expect(keys({ ...valid(), sd: "*", st: "x", pattern_addr: "a", replace_addr: "b" })).toEqual([]);
  });
  test("NGINX only checks port, limit and target pool", () => {
    expect(
      keys({
        ...valid(),
        currency: "NGINX",
        mode: 2,
        st: "x",
        wallets: Array.from({ length: 11 }, emptyWallet),
      }),
    ).toEqual([]);
  });
});

describe("secure route", () => {
  test("letters only, no slashes, no ?", () => {
    expect(validateRoute("Farm")).toBeNull();
    for (const bad of ["", "/farm", "farm/", "fa//rm", "farm?x", "farm1", "fa/rm", "färm"])
      expect(validateRoute(bad)).toBe("lang.route.err_format");
  });
  test("sent with a trailing slash", () => {
    expect(routeToWire(" Farm ")).toBe("Farm/");
    expect(routeToWire("")).toBe("");
  });
});

describe("change user", () => {
  const ok = {
    username: "a",
    newUsername: "b",
    newUsername2: "b",
    password: "p",
    newPassword: "q",
    newPassword2: "q",
  };
  test("all six required", () => {
    expect(validateChangeUser({ ...ok, password: "" }).map((e) => e.field)).toEqual(["password"]);
    expect(validateChangeUser(ok)).toEqual([]);
  });
  test("confirmations must match", () => {
    expect(validateChangeUser({ ...ok, newUsername2: "c", newPassword2: "r" }).map((e) => e.field)).toEqual([
      "newUsername2",
      "newPassword2",
    ]);
  });
});

describe("small forms", () => {
  test("hot wallets name the row", () => {
    expect(
      validateHotWallets([
        { addr: "a", device: "d", pool_address: "p" },
        { addr: "", device: "d", pool_address: "" },
      ]),
    ).toEqual([
      { field: "addr", key: "lang.wallet.err_addr", row: 2 },
      { field: "pool_address", key: "lang.wallet.err_pool", row: 2 },
    ]);
  });
  test("preset pool, client and pool-node port need every field", () => {
    expect(validatePresetPool({ coin: "BTC", name: "", address: "x", deal: "0" })[0]?.key).toBe(
      "lang.preset.err_incomplete",
    );
    expect(validateClient({ address: "", token: "", remark: "" })).toHaveLength(3);
    expect(validatePoolNodePort({ coin: "KAS", port: "70000", area: "1" })).toHaveLength(1);
    expect(validatePoolNodePort({ coin: "KAS", port: "7000", area: "1" })).toEqual([]);
  });
  test("import file kinds", () => {
    expect(importKind("a.JSON")).toBe("json");
    expect(importKind("ports.xlsx")).toBe("xlsx");
    expect(importKind("ports.xls")).toBeNull();
  });
});
