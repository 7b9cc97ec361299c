import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { coinLabel, coinNotes, visibleCoins } from "../../../ui/src/lib/coins.ts";
import {
  formatBytes,
  formatCoins,
  formatDuration,
  formatHashrate,
  formatPercent,
  formatPoints,
  parseCoins,
} from "../../../ui/src/lib/format.ts";
import { derivedKey } from "../../../ui/src/lib/md5-key.ts";
import type { PortItem } from "../../../ui/src/lib/port-types.ts";
import { coinActivity, coinCounts, filterCoins, paginate, sortPorts } from "../../../ui/src/lib/ports.ts";
import { DEFAULT_PREFS, parsePrefs } from "../../../ui/src/lib/prefs.ts";
import { appendSample, averageFor } from "../../../ui/src/lib/series.ts";

describe("format (spec §9)", () => {
  test("hashrate in steps of 1000, two decimals", () => {
    expect(formatHashrate(0)).toBe("0.00 H/s");
    expect(formatHashrate(999)).toBe("999.00 H/s");
    expect(formatHashrate(1500)).toBe("1.50 KH/s");
    expect(formatHashrate(2.5e18)).toBe("2.50 EH/s");
  });
  test("hashrate in the unit the coin counts: solutions for Equihash, graphs for Cuckatoo", () => {
    expect(formatHashrate(0, "Sol")).toBe("0.00 Sol/s");
    expect(formatHashrate(45_300, "Sol")).toBe("45.30 KSol/s");
    expect(formatHashrate(12.5, "G")).toBe("12.50 G/s");
  });
  test("duration in days, hours, minutes, seconds", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(90061)).toBe("1d 1h 1m 1s");
    expect(formatDuration(3600)).toBe("1h");
    expect(formatDuration(86400 + 5, { d: "天", h: "小时", m: "分", s: "秒" })).toBe("1天 5秒");
  });
  test("bytes and percent", () => {
    expect(formatBytes(1536)).toBe("1.50 KB");
    expect(formatPercent(0.0125)).toBe("1.25%");
  });
  test("a gap in percentage points, signed, three decimals", () => {
    expect(formatPoints(0.0005)).toBe("+0.050");
    expect(formatPoints(-0.00018)).toBe("−0.018");
    expect(formatPoints(0)).toBe("+0.000");
    expect(formatPoints(Number.NaN)).toBe("+0.000");
  });
});

test("pool-node amounts: base units as coins with all eight decimals, exact up to 2^53 units", () => {
  expect(formatCoins(0, "LTC")).toBe("0.00000000 LTC");
  expect(formatCoins(1, "LTC")).toBe("0.00000001 LTC");
  expect(formatCoins(1_633_333_333, "LTC")).toBe("16.33333333 LTC");
  expect(formatCoins(5_000_000_000, "BTC")).toBe("50.00000000 BTC");
  expect(formatCoins(2 ** 53 - 1, "LTC")).toBe("90071992.54740991 LTC");
  // where dividing by 10^8 in doubles is off by one unit
  expect(formatCoins(7_625_757_073_586_630, "LTC")).toBe("76257570.73586630 LTC");
});

test("pool-node amounts typed in coins: exact base units, where multiplying in doubles is a unit short", () => {
  expect(Math.floor(0.29 * 1e8)).toBe(28_999_999);
  expect(parseCoins("0.29")).toBe(29_000_000);
  expect(parseCoins(" 1.5 ")).toBe(150_000_000);
  expect(parseCoins("0,001")).toBe(100_000);
  expect(parseCoins("12")).toBe(1_200_000_000);
  expect(parseCoins("0.00000001")).toBe(1);
  expect(parseCoins("90071992.54740991")).toBe(2 ** 53 - 1);
  for (const bad of ["", "1.123456789", "-1", "1e3", "abc", "1.2.3", "90071992.54740992", "123456789"])
    expect(parseCoins(bad)).toBeNull();
});

describe("coins (spec §2)", () => {
  const cfg = {
    ZEC: { is_pub: 1, category: "equihash" },
    BTC: { is_pub: 1, category: "sha256" },
    "VA-BTC": { is_pub: 0, category: "sha256" },
    NGINX: { is_pub: 1, category: "nginx" },
    KASPA: { is_pub: 1, category: "kheavyhash" },
  };
  test("is_pub filter and fixed head order", () => {
    expect(visibleCoins(cfg)).toEqual(["NGINX", "BTC", "KASPA", "ZEC"]);
    expect(visibleCoins(cfg, true)).toContain("VA-BTC");
  });
  test("labels", () => {
    expect(coinLabel("NGINX", "NGINX 纯转发")).toBe("NGINX 纯转发");
    expect(coinLabel("KAS(ks3)")).toBe("KAS(ks3, ks3l, ks3m)");
    expect(coinLabel("KASPA")).toBe("KAS(GPU)");
  });
  test("advisory notes from the server, or the known ones", () => {
    expect(coinNotes("LTC", undefined)).toEqual(["lang.coin.note.ltc"]);
    expect(coinNotes("X", { is_pub: 1, category: "", notes: ["k"] })).toEqual(["k"]);
    expect(coinNotes("ZEC", undefined)).toEqual([]);
  });
});

const port = (id: number, p: number, coin: string, online: number, delay = 0): PortItem =>
  ({
    server: { id, port: p, name: `n${id}`, currency: coin },
    wallets: [],
    setting: {},
    stat: { online, delay },
    state: "active",
  }) as unknown as PortItem;

describe("port list (spec §3 defaults)", () => {
  const items = [port(1, 5000, "BTC", 3, 20), port(2, 3000, "LTC", 0), port(3, 4000, "BTC", 1, 40)];
  test("sort by port ascending, then descending", () => {
    expect(sortPorts(items, "port", "ascending").map((i) => i.server.port)).toEqual([3000, 4000, 5000]);
    expect(sortPorts(items, "online", "descending").map((i) => i.server.id)).toEqual([1, 3, 2]);
  });
  test("paging clamps the page", () => {
    const list = Array.from({ length: 65 }, (_, i) => i);
    expect(paginate(list, 1, 30).rows).toHaveLength(30);
    expect(paginate(list, 9, 30)).toMatchObject({ page: 3, pages: 3 });
    expect(paginate([], 1, 30)).toMatchObject({ page: 1, pages: 1 });
  });
  test("coin filters: without a proxy, without activity", () => {
    const counts = coinCounts(items, ["BTC", "LTC", "ZEC"]);
    expect(filterCoins(counts, true, false).map((c) => c.coin)).toEqual(["BTC", "LTC"]);
    expect(filterCoins(counts, true, true).map((c) => c.coin)).toEqual(["BTC"]);
  });
  test("activity ranking with average latency", () => {
    expect(coinActivity(items)).toEqual([
      { coin: "BTC", ports: 2, online: 4, delay: 30 },
      { coin: "LTC", ports: 1, online: 0, delay: 0 },
    ]);
  });
});

describe("preferences (spec §3 defaults)", () => {
  test("defaults", () => {
    expect(DEFAULT_PREFS).toMatchObject({
      language: "en",
      theme: "dark",
      chart3select: "BTC",
      defaultAves1: 900,
      defaultAves2: 86400,
      portListActiveSort: "port",
      portListPageSie: 30,
      portListSortDir: "ascending",
    });
  });
  test("stored values merge over defaults; bad values are dropped", () => {
    expect(parsePrefs('{"theme":"light","portListPageSie":"x","language":"fr"}')).toMatchObject({
      theme: "light",
      portListPageSie: 30,
      language: "en",
    });
    expect(parsePrefs("{not json")).toEqual(DEFAULT_PREFS);
  });
});

describe("chart data", () => {
  test("average windows map to the server's 15 min / 4 h / 24 h", () => {
    const v = { current: 1, m15: 2, h4: 3, h24: 4 };
    expect([900, 14400, 86400].map((w) => averageFor(v, w))).toEqual([2, 3, 4]);
  });
  test("samples are bounded", () => {
    let c = { t: [] as number[], h: [] as number[] };
    for (let i = 0; i < 5; i++) c = appendSample(c, i, i * 10, 3);
    expect(c).toEqual({ t: [2, 3, 4], h: [20, 30, 40] });
  });
});

describe("encryption key derived value (spec §3)", () => {
  test("md5(key)[8:24], 16 characters, same as the server", () => {
    const key = "my-farm-key";
    const want = createHash("md5").update(key).digest("hex").slice(8, 24);
    expect(derivedKey(key)).toBe(want);
    expect(derivedKey(key)).toHaveLength(16);
    expect(derivedKey("")).toBe("");
    expect(derivedKey("密钥")).toBe(createHash("md5").update("密钥").digest("hex").slice(8, 24));
  });
});
