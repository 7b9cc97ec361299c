import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type ErrorBody = { error: { key: string; message: string; field?: string } };
type Item = {
  server: Record<string, unknown> & { id: number; port: number };
  wallets: Record<string, unknown>[];
  setting: Record<string, unknown>;
  stat: { online: number; delay: number };
  state: string;
};

async function create(overrides: Record<string, unknown> = {}) {
  return t.client.post<{ id: number } & Partial<ErrorBody>>(
    "/api/port/new",
    portBody({ port: freePort(), ...overrides }),
  );
}

async function expectError(overrides: Record<string, unknown>, key: string, status = 400) {
  const res = await create(overrides);
  expect({ status: res.status, key: res.body.error?.key }).toEqual({ status, key });
  return res;
}

describe("create, read, edit, clone, delete", () => {
  test("a created port reads back with server, wallets, setting, stat and state", async () => {
    const res = await create({ name: "farm A" });
    expect(res.status).toBe(200);
    const item = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    expect(item.server).toMatchObject({
      name: "farm A",
      currency: "BTC",
      category: "sha256",
      limit_connections: 65535,
    });
    expect(item.wallets).toHaveLength(1);
    expect(item.wallets[0]).toMatchObject({
      addr: "bc1qfee",
      device: "fee1",
      ratio: 0.02,
      server_id: res.body.id,
    });
    expect(item.setting.port).toBe(item.server.port);
    expect(item.stat).toEqual({ online: 0, delay: 0 });
    expect(item.state).toBe("closed");
    const list = (await t.client.get<{ items: Item[] }>("/api/ports")).body.items;
    expect(list.some((i) => i.server.id === res.body.id)).toBe(true);
  });

  test("edit replaces fields; clone gets a new port number and fresh wallet ids; delete removes it", async () => {
    const { body } = await create();
    const edited = await t.client.post(
      `/api/port/${body.id}`,
      portBody({ port: freePort(), name: "renamed" }),
    );
    expect(edited.status).toBe(200);
    const item = (await t.client.get<Item>(`/api/port/${body.id}`)).body;
    expect(item.server.name).toBe("renamed");

    const clonePort = freePort();
    const clone = await t.client.post<{ id: number }>(`/api/port/${body.id}/copy`, { port: clonePort });
    expect(clone.status).toBe(200);
    const copy = (await t.client.get<Item>(`/api/port/${clone.body.id}`)).body;
    expect(copy.server).toMatchObject({ name: "renamed", port: clonePort });
    expect(copy.wallets[0]?.id).not.toBe(item.wallets[0]?.id);

    expect((await t.client.del(`/api/port/${clone.body.id}`)).status).toBe(200);
    expect((await t.client.get(`/api/port/${clone.body.id}`)).status).toBe(404);
  });

  test("a clone without a new port number is refused as a duplicate", async () => {
    const { body } = await create();
    const item = (await t.client.get<Item>(`/api/port/${body.id}`)).body;
    const clone = await t.client.post<ErrorBody>(`/api/port/${body.id}/copy`, { port: item.server.port });
    expect(clone.status).toBe(409);
    expect(clone.body.error.key).toBe("lang.proxy.err_duplicate");
  });
});

describe("spec §5 rules", () => {
  test("port number is required, numeric, 1 to 65534", async () => {
    for (const port of [undefined, "", "abc", 0, 65535, -1, 1.5]) {
      const res = await expectError({ port }, "lang.proxy.err_port");
      expect(res.body.error?.message).toBe("Please enter the port to be monitored, ranging from 1 to 65534");
    }
  });

  test("a numeric string port is accepted", async () => {
    const res = await create({ port: String(freePort()) });
    expect(res.status).toBe(200);
  });

  test("coin and main pool are required; an unknown coin is not supported", async () => {
    await expectError({ currency: "" }, "lang.proxy.err_currency");
    await expectError({ pool_address: "  " }, "lang.proxy.err_pool_address");
    await expectError({ currency: "NOPECOIN" }, "lang.proxy.err_coin_unsupported");
  });

  test("the modes the server offers per coin are its family's: Equihash coins (ZEC, FLUX) offer Efficient and Pool", async () => {
    const config = (
      await t.client.get<{ config: Record<string, { modes: number[] }> }>("/api/currency/config")
    ).body.config;
    expect(config.BTC?.modes).toEqual([0, 1, 2]);
    expect(config.ZEC?.modes).toEqual([0, 2]);
    expect(config.FLUX?.modes).toEqual([0, 2]);
  });

  test("the fee wallets of a port add up to at most 100 %, on create, edit and the hot wallet calls", async () => {
    const half = (i: number) => ({ addr: `bc1q${i}`, device: "f", pool_address: "127.0.0.1:1", ratio: 0.5 });
    await expectError({ wallets: [half(1), half(2), half(3)] }, "lang.wallet.err_total");
    const ok = await create({ wallets: [half(1), half(2)] });
    expect(ok.status).toBe(200);
    const third = await t.client.post<ErrorBody>("/api/wallet/new", { server_id: ok.body.id, ...half(3) });
    expect(third.body.error.key).toBe("lang.wallet.err_total");
    const item = (await t.client.get<Item>(`/api/port/${ok.body.id}`)).body;
    const raise = await t.client.post<ErrorBody>(`/api/wallet/${item.wallets[0]?.id}`, {
      ...half(1),
      ratio: 0.6,
    });
    expect(raise.body.error.key).toBe("lang.wallet.err_total");
    const list = await t.client.post<ErrorBody>(`/api/port/${ok.body.id}/wallets`, {
      wallets: [half(1), { ...half(2), ratio: 0.7 }],
    });
    expect(list.body.error.key).toBe("lang.wallet.err_total");
  });

  test("editing a port keeps the ids of the fee wallets it still has", async () => {
    const res = await create({
      wallets: [
        { addr: "bc1qa", device: "fa", pool_address: "127.0.0.1:1", ratio: 0.01 },
        { addr: "bc1qb", device: "fb", pool_address: "127.0.0.1:1", ratio: 0.02 },
      ],
    });
    const before = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    const [a, b] = before.wallets as { id: number; addr: string }[];
    // the console sends the wallets back with their ids; b is edited, a removed, c added
    const edited = await t.client.post(
      `/api/port/${res.body.id}`,
      portBody({
        port: before.server.port,
        wallets: [
          { id: b?.id, addr: "bc1qb2", device: "fb", pool_address: "127.0.0.1:1", ratio: 0.03 },
          { addr: "bc1qc", device: "fc", pool_address: "127.0.0.1:1", ratio: 0.01 },
        ],
      }),
    );
    expect(edited.status).toBe(200);
    const after = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body.wallets as {
      id: number;
      addr: string;
    }[];
    expect(after.map((w) => w.addr)).toEqual(["bc1qb2", "bc1qc"]);
    expect(after[0]?.id).toBe(b?.id as number);
    expect(after.map((w) => w.id)).not.toContain(a?.id as number);
  });

  test("transports that are not implemented (RMS2/RMS3 fee pools outside the Bitcoin and Equihash families, a tunnel on the forwarding coin) are refused, not served as TCP/SSL", async () => {
    for (const [over, field] of [
      [{ currency: "NGINX", protocol: 6, wallets: [] }, "protocol"],
      [{ protocol: 0, setting: { et_mode: 1 } }, "setting.et_mode"],
      [{ currency: "NGINX", connect_mode: 5, wallets: [] }, "connect_mode"],
      [
        {
          currency: "ETC",
          wallets: [{ addr: "f", device: "f", pool_address: "127.0.0.1:1", pool_protocol: 6, ratio: 0.02 }],
        },
        "wallets",
      ],
    ] as const) {
      const res = await expectError(over, "lang.proxy.err_transport");
      expect(res.body.error?.field).toBe(field);
    }
    // SOCKS5 is TCP with et_mode 2, KENC is SSL with et_mode 1; both are implemented, so are the
    // RMS, RMS2 and RMS3 tunnel listeners
    expect((await create({ protocol: 0, setting: { et_mode: 2 } })).status).toBe(200);
    expect((await create({ protocol: 1, setting: { et_mode: 1 } })).status).toBe(200);
    for (const protocol of [2, 5, 6]) expect((await create({ protocol })).status).toBe(200);
    // a main or standby pool behind another Pithead's tunnel port (appliance chaining)
    expect((await create({ connect_mode: 6, pool_address2: "127.0.0.1:2", connect_mode2: 5 })).status).toBe(
      200,
    );
    // a Bitcoin-family fee pool behind another Pithead's tunnel port (docs/rms-tunnel.md)
    const rmsFee = { addr: "f", device: "f", pool_address: "127.0.0.1:1", pool_protocol: 6, ratio: 0.02 };
    const btc = await create({ wallets: [rmsFee] });
    expect(btc.status).toBe(200);
    expect((await t.client.get<Item>(`/api/port/${btc.body.id}`)).body.wallets[0]).toMatchObject({
      pool_protocol: 6,
    });
    // and an Equihash one: the stream's NONCE_1 leaves room in the 32-byte nonce for the farm's slot byte
    expect((await create({ currency: "ZEC", wallets: [rmsFee] })).status).toBe(200);
    const hot = (serverId: number) =>
      t.client.post<ErrorBody>("/api/wallet/new", {
        server_id: serverId,
        addr: "f2",
        device: "f",
        pool_address: "127.0.0.1:1",
        pool_protocol: 5,
        ratio: 0.01,
      });
    expect((await hot((await create()).body.id)).status).toBe(200);
    const etc = await create({ currency: "ETC" });
    expect((await hot(etc.body.id)).body.error.key).toBe("lang.proxy.err_transport");
  });

  test("whitespace is stripped from pool addresses and wallets", async () => {
    const res = await create({
      pool_address: " 127.0.0.1: 3333 ",
      wallets: [{ addr: " bc1q fee ", device: " fee1 ", pool_address: " 127.0.0.1:1 ", ratio: 0.01 }],
    });
    const item = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    expect(item.server.pool_address).toBe("127.0.0.1:3333");
    expect(item.wallets[0]).toMatchObject({ addr: "bc1qfee", device: "fee1", pool_address: "127.0.0.1:1" });
  });

  test("Pool mode needs a unified wallet and a unified device name", async () => {
    await expectError({ mode: 2, proxy_device: "rig" }, "lang.proxy.err_unified_wallet");
    await expectError({ mode: 2, proxy_addr: "bc1qall" }, "lang.proxy.err_unified_device");
    const ok = await create({ mode: 2, proxy_addr: "bc1qall", proxy_device: "rig" });
    const item = (await t.client.get<Item>(`/api/port/${ok.body.id}`)).body;
    expect(item.setting).toMatchObject({ cp_mode: 1, cp_name: 1 });
  });

  test("max connections runs 0 to 65535 and defaults to 65535", async () => {
    await expectError({ limit_connections: 65536 }, "lang.proxy.err_limit");
    await expectError({ limit_connections: -1 }, "lang.proxy.err_limit");
    expect((await create({ limit_connections: 0 })).status).toBe(200);
  });

  test("a fee row with a percent needs address, pool and device; the percent runs 0..100 in 0.01 steps", async () => {
    const row = { addr: "w", device: "d", pool_address: "127.0.0.1:1", ratio: 0.05 };
    await expectError({ wallets: [{ ...row, addr: "" }] }, "lang.wallet.err_addr");
    await expectError({ wallets: [{ ...row, device: "" }] }, "lang.wallet.err_device");
    await expectError({ wallets: [{ ...row, pool_address: "" }] }, "lang.wallet.err_pool");
    await expectError({ wallets: [{ ...row, ratio: 1.01 }] }, "lang.wallet.err_ratio");
    await expectError({ wallets: [{ ...row, ratio: 0.00015 }] }, "lang.wallet.err_ratio");
    expect((await create({ wallets: [{ ...row, ratio: 0.0001 }] })).status).toBe(200);
    // a row without a percent needs nothing
    expect((await create({ wallets: [{ addr: "", device: "", pool_address: "", ratio: 0 }] })).status).toBe(
      200,
    );
  });

  test("zero-percent rows are dropped on create except the first; at least one row; ten at most", async () => {
    const row = { addr: "w", device: "d", pool_address: "127.0.0.1:1" };
    const res = await create({
      wallets: [
        { ...row, ratio: 0 },
        { ...row, ratio: 0 },
        { ...row, ratio: 0.01 },
      ],
    });
    const item = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    expect(item.wallets.map((w) => w.ratio)).toEqual([0, 0.01]);
    await expectError({ wallets: [] }, "lang.wallet.err_min");
    const eleven = Array.from({ length: 11 }, () => ({ ...row, ratio: 0.01 }));
    const tooMany = await expectError({ wallets: eleven }, "lang.wallet.err_max");
    expect(tooMany.body.error?.message).toBe("No more than ten wallets");
  });

  test("replace wallet and replace miner name need both of their fields", async () => {
    await expectError({ pattern_addr: "a\nb" }, "lang.proxy.err_replace_wallet");
    await expectError({ replace_addr: "x" }, "lang.proxy.err_replace_wallet");
    await expectError({ setting: { sd: "*" } }, "lang.proxy.err_replace_name");
    await expectError({ setting: { st: "rig" } }, "lang.proxy.err_replace_name");
    const res = await create({
      pattern_addr: " a \n\n b ",
      replace_addr: "x",
      setting: { sd: "r1\n\n\nr2\n", st: "rig" },
    });
    const item = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    expect(item.server.pattern_addr).toBe("a\nb");
    expect(item.setting.sd).toBe("r1\nr2");
  });

  test("Compatible mode takes the fee on the target pool", async () => {
    const res = await create({
      mode: 1,
      pool_address: "127.0.0.1:4444",
      wallets: [{ addr: "w", device: "d", pool_address: "", ratio: 0.02 }],
    });
    expect(res.status).toBe(200);
    const item = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    expect(item.wallets[0]?.pool_address).toBe("127.0.0.1:4444");
  });

  test("the nginx port keeps only port, max connections, protocol and target pool", async () => {
    const res = await create({
      currency: "NGINX",
      protocol: 1,
      limit_connections: 100,
      mode: 2,
      proxy_addr: "x",
      proxy_device: "y",
      pool_address2: "127.0.0.1:9",
      wallets: [],
    });
    expect(res.status).toBe(200);
    const item = (await t.client.get<Item>(`/api/port/${res.body.id}`)).body;
    expect(item.server).toMatchObject({
      category: "nginx",
      protocol: 1,
      limit_connections: 100,
      mode: 0,
      proxy_addr: "",
      pool_address2: "",
    });
    expect(item.wallets).toEqual([]);
  });

  test("a duplicate port number and the web console's port are refused", async () => {
    const port = freePort();
    expect((await create({ port })).status).toBe(200);
    await expectError({ port }, "lang.proxy.err_duplicate", 409);
    const webPort = Number(new URL(t.app.url()).port);
    // the console's port is held by the console itself
    const res = await create({ port: webPort, status: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error?.key).toBe("lang.proxy.err_occupied");
  });

  test("a port held by another program cannot be opened", async () => {
    const holder = Bun.listen({ hostname: "0.0.0.0", port: 0, socket: { data() {} } });
    try {
      await expectError({ port: holder.port, status: 1 }, "lang.proxy.err_occupied", 409);
    } finally {
      holder.stop(true);
    }
  });

  test("malformed JSON gets a clear error", async () => {
    const res = await t.client.call<ErrorBody>("POST", "/api/port/new", "{nope");
    expect(res.status).toBe(400);
    expect(res.body.error.key).toBe("lang.err.bad_json");
  });
});

describe("codes", () => {
  test("unknown listening protocol, pool protocol or connection mode are refused", async () => {
    await expectError({ protocol: 4 }, "lang.proxy.err_protocol");
    await expectError({ connect_mode: 2 }, "lang.proxy.err_connect_mode");
    await expectError({ mode: 3 }, "lang.proxy.err_mode");
  });
});

async function listening(port: number): Promise<boolean> {
  try {
    const s = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    s.end();
    return true;
  } catch {
    return false;
  }
}

describe("start, stop and batch", () => {
  test("an open port listens; stop closes the listener and start opens it again", async () => {
    const port = freePort();
    const { body } = await create({ port, status: 1 });
    expect((await t.client.get<Item>(`/api/port/${body.id}`)).body.state).toBe("active");
    expect(await listening(port)).toBe(true);
    expect((await t.client.post(`/api/port/${body.id}/stop`)).status).toBe(200);
    expect((await t.client.get<Item>(`/api/port/${body.id}`)).body.state).toBe("closed");
    expect(await listening(port)).toBe(false);
    expect((await t.client.post(`/api/port/${body.id}/start`)).status).toBe(200);
    expect(await listening(port)).toBe(true);
    await t.client.del(`/api/port/${body.id}`);
    expect(await listening(port)).toBe(false);
  });

  test("batch reports what succeeded and what failed", async () => {
    const a = (await create()).body.id;
    const b = (await create()).body.id;
    const res = await t.client.post<{ succeeded: number[]; failed: { id: number; key: string }[] }>(
      "/api/ports/batch",
      {
        action: "delete",
        ids: [a, b, 999999],
      },
    );
    expect(res.body.succeeded).toEqual([a, b]);
    expect(res.body.failed).toEqual([expect.objectContaining({ id: 999999, key: "lang.err.not_found" })]);
  });
});

describe("fee wallets hot update", () => {
  test("add, update and delete a fee wallet of a port; the last one cannot go", async () => {
    const id = (await create()).body.id;
    const bad = await t.client.post<ErrorBody>("/api/wallet/new", {
      server_id: id,
      addr: "w2",
      device: "",
      pool_address: "127.0.0.1:1",
    });
    expect(bad.body.error.key).toBe("lang.wallet.err_device");
    const added = await t.client.post<{ id: number }>("/api/wallet/new", {
      server_id: id,
      addr: "w2",
      device: "d2",
      pool_address: "127.0.0.1:1",
      ratio: 0.01,
    });
    expect(added.status).toBe(200);
    const upd = await t.client.post(`/api/wallet/${added.body.id}`, {
      addr: "w3",
      device: "d3",
      pool_address: "127.0.0.1:2",
      ratio: 0.03,
    });
    expect(upd.status).toBe(200);
    let item = (await t.client.get<Item>(`/api/port/${id}`)).body;
    expect(item.wallets.map((w) => w.addr)).toEqual(["bc1qfee", "w3"]);
    expect((await t.client.del(`/api/wallet/${added.body.id}`)).status).toBe(200);
    item = (await t.client.get<Item>(`/api/port/${id}`)).body;
    const last = await t.client.del<ErrorBody>(`/api/wallet/${item.wallets[0]?.id}`);
    expect(last.body.error.key).toBe("lang.wallet.err_min");
  });
});

describe("ratios", () => {
  test("a wallet ratio is set, listed and restored", async () => {
    const id = (await create()).body.id;
    expect(
      (await t.client.post(`/api/port/${id}/wallet/ratio`, { wallet: "bc1qminer", wid: 1, r: 0.05 })).status,
    ).toBe(200);
    const list = await t.client.get<{ addr: string; ratio: number }[]>(`/api/port/${id}/wallet/ratio`);
    expect(list.body).toEqual([expect.objectContaining({ addr: "bc1qminer", ratio: 0.05 })]);
    expect((await t.client.del(`/api/port/${id}/wallet/bc1qminer/ratio`)).status).toBe(200);
    expect((await t.client.get<unknown[]>(`/api/port/${id}/wallet/ratio`)).body).toEqual([]);
    const bad = await t.client.post<ErrorBody>(`/api/port/${id}/wallet/ratio`, { wallet: "x", r: 2 });
    expect(bad.body.error.key).toBe("lang.ratio.err_set");
  });
});

describe("live state before any miner connects", () => {
  test("device lists are empty and correctly shaped", async () => {
    const id = (await create()).body.id;
    for (const path of ["workers", "log", "ips", "g/workers", "g/wallet/list", "g/wallets/0"]) {
      const res = await t.client.get<unknown[]>(`/api/port/${id}/${path}`);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 200, body: [] });
    }
    expect((await t.client.get("/api/stat/worker/none")).status).toBe(404);
    expect((await t.client.get("/api/device/stats")).body).toMatchObject({ online: 0 });
  });
});

describe("answers", () => {
  test("a large JSON answer is gzipped for a client that accepts it", async () => {
    for (let i = 0; i < 40; i++) await create();
    const res = await fetch(`${t.app.url()}/api/ports`, {
      headers: { authorization: `Bearer ${t.client.token}`, "accept-encoding": "gzip" },
      decompress: false,
    });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const items = JSON.parse(
      new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer()))),
    ).items;
    expect(items.length).toBeGreaterThanOrEqual(40);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("the device list pages on request and refuses bad page parameters", async () => {
    const id = (await create()).body.id;
    const page = await t.client.get(`/api/port/${id}/workers?limit=10&sort=hashrate&order=desc`);
    expect(page.body).toEqual({ total: 0, items: [] });
    expect((await t.client.get(`/api/port/${id}/workers?limit=0`)).status).toBe(400);
    expect((await t.client.get(`/api/port/${id}/workers?limit=5&sort=bogus`)).status).toBe(400);
  });
});
