import { describe, expect, test } from "bun:test";
import {
  CONNECT_MODES,
  cleanLines,
  cloneForm,
  confirmSentenceOk,
  emptyForm,
  emptyWallet,
  feePoolDiffers,
  feeProtocolAvailable,
  feeSummary,
  fromItem,
  LISTEN_CHOICES,
  listenToWire,
  percentToRatio,
  toPayload,
  wireToListen,
} from "../../../ui/src/lib/port-form.ts";
import type { PortItem } from "../../../ui/src/lib/port-types.ts";

const item: PortItem = {
  server: {
    id: 7,
    port: 3333,
    name: "farm",
    currency: "BTC",
    nc: 0,
    limit_connections: 500,
    pool_address: "pool:3333",
    connect_mode: 1,
    pool_address2: "",
    connect_mode2: 0,
    mode: 0,
    proxy_addr: "",
    proxy_device: "",
    pattern_addr: "",
    replace_addr: "",
    protocol: 1,
    category: "sha256",
  },
  wallets: [
    {
      id: 3,
      server_id: 7,
      addr: "w1",
      device: "fee",
      pool_address: "pool:3333",
      pool_protocol: 1,
      ratio: 0.0125,
    },
  ],
  setting: {
    cp_name: 0,
    cp_mode: 0,
    pu_mode: 1,
    et_mode: 1,
    lj: 0,
    pth: 0,
    cut: 1,
    fr: 0,
    op: 0,
    sp: 0,
    sd: "",
    st: "",
    ra: "",
    port: 3333,
  },
  stat: { online: 0, delay: 0 },
  state: "active",
};

describe("listening protocol codes (spec §4)", () => {
  test("KENC is SSL with et_mode 1, SOCKS5 is TCP with et_mode 2", () => {
    expect(listenToWire("KENC")).toEqual({ protocol: 1, et_mode: 1 });
    expect(listenToWire("SOCKS5")).toEqual({ protocol: 0, et_mode: 2 });
    expect(listenToWire("TTS")).toEqual({ protocol: 3, et_mode: 0 });
  });
  test("round trip", () => {
    for (const c of LISTEN_CHOICES) {
      const w = listenToWire(c);
      expect(wireToListen(w.protocol, w.et_mode)).toBe(c);
    }
  });
});

describe("form ↔ wire", () => {
  test("fromItem reads switches and percent", () => {
    const f = fromItem(item);
    expect(f.listen).toBe("KENC");
    expect(f.okminer).toBe(true);
    expect(f.oldModel).toBe(true);
    expect(f.wallets[0]?.percent).toBe("1.25");
  });
  test("edit payload keeps ids and converts percent to ratio", () => {
    const p = toPayload(fromItem(item), "sha256");
    expect(p.id).toBe(7);
    expect(p.wallets).toEqual([
      { id: 3, addr: "w1", device: "fee", pool_address: "pool:3333", pool_protocol: 1, ratio: 0.0125 },
    ]);
    expect(p.setting.et_mode).toBe(1);
    expect(p.protocol).toBe(1);
  });
  test("clone clears the port number, the id and the wallet ids", () => {
    const c = cloneForm(fromItem(item));
    expect(c.id).toBeUndefined();
    expect(c.port).toBe("");
    expect(c.wallets[0]?.id).toBeUndefined();
    expect(c.wallets[0]?.addr).toBe("w1");
  });
  test("create drops zero-percent rows except the first, strips whitespace", () => {
    const f = {
      ...emptyForm("BTC"),
      port: "1",
      pool_address: " pool :1 ",
      wallets: [
        emptyWallet(),
        { ...emptyWallet(), percent: "0" },
        { ...emptyWallet(), addr: " a b ", percent: "2" },
      ],
    };
    const p = toPayload(f, "sha256");
    expect(p.pool_address).toBe("pool:1");
    expect(p.wallets.map((w) => w.ratio)).toEqual([0, 0.02]);
    expect(p.wallets[1]?.addr).toBe("ab");
  });
  test("Pool mode sets both unify switches; Compatible uses the target pool for fees", () => {
    const base = { ...emptyForm("BTC"), port: "1", pool_address: "p:1", connect_mode: 1 };
    expect(toPayload({ ...base, mode: 2 }, "").setting).toMatchObject({ cp_mode: 1, cp_name: 1 });
    const w = { ...emptyWallet(), percent: "1", pool_address: "other:1" };
    expect(toPayload({ ...base, mode: 1, wallets: [w] }, "").wallets[0]).toMatchObject({
      pool_address: "p:1",
      pool_protocol: 1,
    });
  });
  test("SOCKS5 credentials go out on a SOCKS5 port only, and come back into the form", () => {
    const base = {
      ...emptyForm("BTC"),
      port: "1",
      pool_address: "p:1",
      socksUser: "u",
      socksPassword: "p w",
    };
    const socks = toPayload({ ...base, listen: "SOCKS5" }, "sha256").setting;
    expect(socks).toMatchObject({ et_mode: 2, socks_user: "u", socks_password: "p w" });
    expect(toPayload({ ...base, listen: "TCP" }, "sha256").setting).toMatchObject({
      socks_user: "",
      socks_password: "",
    });
    const back = fromItem({ ...item, server: { ...item.server, protocol: 0 }, setting: socks });
    expect([back.listen, back.socksUser, back.socksPassword]).toEqual(["SOCKS5", "u", "p w"]);
  });
  test("NGINX keeps only the forward fields", () => {
    const p = toPayload(
      { ...emptyForm("NGINX"), port: "80", pool_address: "a:1", pool_address2: "b:2", sd: "x", st: "y" },
      "nginx",
    );
    expect(p.wallets).toEqual([]);
    expect(p.pool_address2).toBe("");
    expect(p.setting.sd).toBe("");
  });
  test("names to replace: blank lines collapsed", () =>
    expect(cleanLines("a\n\n  b \n\n*\n")).toBe("a\nb\n*"));
  test("percent to ratio uses 0.01 % steps", () => {
    expect(percentToRatio("0.01")).toBe(0.0001);
    expect(percentToRatio("33.33")).toBe(0.3333);
  });
});

describe("fee tab and confirmation", () => {
  test("tab title counts active rows and sums percent", () => {
    expect(
      feeSummary([
        { ...emptyWallet(), percent: "1.5" },
        emptyWallet(),
        { ...emptyWallet(), percent: "0.25" },
      ]),
    ).toEqual({
      count: 2,
      percent: 1.75,
    });
  });
  test("a fee pool different from the target needs the typed sentence", () => {
    const f = {
      ...emptyForm("BTC"),
      pool_address: "a:1",
      wallets: [{ ...emptyWallet(), percent: "1", pool_address: "b:1" }],
    };
    expect(feePoolDiffers(f)).toBe(true);
    expect(
      feePoolDiffers({ ...f, wallets: [{ ...emptyWallet(), percent: "1", pool_address: " a:1" }] }),
    ).toBe(false);
    expect(feePoolDiffers({ ...f, mode: 1 })).toBe(false);
  });
  test("either sentence, Chinese or English, case and spacing ignored", () => {
    expect(confirmSentenceOk("i confirm the fee pool  differs from the target pool ")).toBe(true);
    expect(confirmSentenceOk("我确认抽水矿池与目标矿池不同")).toBe(true);
    expect(confirmSentenceOk("yes")).toBe(false);
  });
});

describe("fee pool protocols", () => {
  const available = (category: string | undefined) =>
    CONNECT_MODES.filter((m) => feeProtocolAvailable(m, category)).map((m) => m.label);
  test("RMS2/RMS3 fee pools are offered on Bitcoin-family coins only, as the server accepts them", () => {
    expect(available("sha256")).toEqual(["TCP", "SSL", "RMS2", "RMS3"]);
    expect(available("scrypt")).toEqual(["TCP", "SSL", "RMS2", "RMS3"]);
    expect(available("kheavyhash")).toEqual(["TCP", "SSL"]);
    expect(available("ethhash")).toEqual(["TCP", "SSL"]);
    // before the catalogue has loaded nothing the server might refuse is offered
    expect(available(undefined)).toEqual(["TCP", "SSL"]);
  });
});
