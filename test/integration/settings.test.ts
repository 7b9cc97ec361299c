import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { RMS_DEFAULTS, RMS_SETTING } from "../../appliance/domain/rms.ts";
import { makeSelfSigned } from "../../appliance/ops/certificate.ts";
import { Client, freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type ErrorBody = { error: { key: string; message: string } };

describe("secure route", () => {
  test("refuses malformed routes with the rule's message", async () => {
    for (const k of ["abc", "/abc/", "a//", "ab?c/", "abc1/", "ab/cd/", "çà/"]) {
      const res = await t.client.post<ErrorBody>("/api/route", { k });
      expect({ k, key: res.body.error?.key }).toEqual({ k, key: "lang.route.err_format" });
    }
  });

  test("names the console uses itself are refused", async () => {
    for (const k of ["system/", "Login/", "api/", "assets/"]) {
      const res = await t.client.post<ErrorBody>("/api/route", { k });
      expect({ k, key: res.body.error?.key }).toEqual({ k, key: "lang.route.err_reserved" });
    }
  });

  test("once set, only the secure route answers; clearing it restores the root", async () => {
    expect((await t.client.get<{ k: string }>("/api/route")).body.k).toBe("");
    const set = await t.client.post<{ k: string }>("/api/route", { k: "Farm/" });
    expect(set.body.k).toBe("Farm/");
    expect((await t.client.get("/api/ports")).status).toBe(404);
    expect((await t.client.get("/api/_/pubkey")).status).toBe(404);
    const inside = new Client(`${t.app.url()}/Farm`);
    inside.token = t.client.token;
    expect((await inside.get("/api/ports")).status).toBe(200);
    expect((await inside.get<{ route_set: boolean }>("/api/_/session")).body.route_set).toBe(true);
    expect((await inside.post("/api/route", { k: "" })).status).toBe(200);
    expect((await t.client.get("/api/ports")).status).toBe(200);
  });
});

describe("KENC key", () => {
  test("shows the md5[8:24] derived value, and reset clears it", async () => {
    const res = await t.client.post<{ k: string; derived: string }>("/api/kc/key", { k: "my-secret" });
    const expected = createHash("md5").update("my-secret").digest("hex").slice(8, 24);
    expect(res.body).toEqual({ k: "my-secret", derived: expected });
    expect(res.body.derived).toHaveLength(16);
    expect((await t.client.get("/api/kc/key")).body).toEqual({ k: "my-secret", derived: expected });
    expect((await t.client.post("/api/kc/reset")).body).toEqual({ k: "", derived: "" });
    expect((await t.client.post<ErrorBody>("/api/kc/key", { k: " " })).body.error.key).toBe(
      "lang.kenc.err_empty",
    );
  });
});

describe("certificate", () => {
  test("starts with the built-in certificate, accepts a matching pair, refuses a mismatched one, resets", async () => {
    const builtin = (await t.client.get<{ builtin: boolean }>("/api/cert")).body;
    expect(builtin.builtin).toBe(true);
    const a = makeSelfSigned("a.example");
    const b = makeSelfSigned("b.example");
    const mismatch = await t.client.post<ErrorBody>("/api/cert/upload", { cert: a.cert, key: b.key });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({
      key: "lang.cert.err_invalid",
      message: "Certificate not configured correctly",
    });
    const garbage = await t.client.post<ErrorBody>("/api/cert/upload", { cert: "hello", key: "world" });
    expect(garbage.body.error.key).toBe("lang.cert.err_invalid");
    const missing = await t.client.post<ErrorBody>("/api/cert/upload", { cert: a.cert });
    expect(missing.body.error.key).toBe("lang.cert.err_missing");

    const form = new FormData();
    form.set("cert", new Blob([a.cert]), "a.crt");
    form.set("key", new Blob([a.key]), "a.key");
    const res = await fetch(`${t.app.url()}/api/cert/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.client.token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { builtin: boolean }).builtin).toBe(false);
    expect((await t.client.post<{ builtin: boolean }>("/api/cert/reset")).body.builtin).toBe(true);
  });
});

describe("blacklists", () => {
  test("wallets and IPs are added and removed with {ips: [...]}, newest first; empty input is refused", async () => {
    await t.client.post("/api/wallet/blacklist", { ips: ["w1"] });
    const list = await t.client.post<string[]>("/api/wallet/blacklist", { ips: [" w2 "] });
    expect(list.body).toEqual(["w2", "w1"]);
    expect((await t.client.del<string[]>("/api/wallet/blacklist", { ips: ["w1"] })).body).toEqual(["w2"]);
    const empty = await t.client.post<ErrorBody>("/api/ip/blacklist", { ips: ["  "] });
    expect(empty.body.error).toMatchObject({ key: "lang.blacklist.err_empty" });
    expect((await t.client.post<string[]>("/api/ip/blacklist", { ips: ["127.0.0.9"] })).body).toEqual([
      "127.0.0.9",
    ]);
  });

  test("the IP blacklist takes IPv4 and IPv6 addresses only; nothing of a bad list is stored", async () => {
    const bad = await t.client.post<ErrorBody & { error: { value: string } }>("/api/ip/blacklist", {
      ips: ["10.0.0.8", "not-an-ip"],
    });
    expect(bad.body.error).toMatchObject({ key: "lang.blacklist.err_ip", value: "not-an-ip" });
    const list = (await t.client.get<string[]>("/api/ip/blacklist")).body;
    expect(list).not.toContain("10.0.0.8");
    expect((await t.client.post<string[]>("/api/ip/blacklist", { ips: ["fd00::7"] })).body).toContain(
      "fd00::7",
    );
  });
});

describe("presets", () => {
  test("the end-point settings hold custom pools and wallets; incomplete rows are refused", async () => {
    const empty = await t.client.get("/api/local/pool/endpoint");
    expect(empty.body).toEqual({ customPool: [], customWallet: [] });
    const value = {
      customPool: [{ coin: "BTC", name: "mine", address: "127.0.0.1:3333", deal: 0 }],
      customWallet: [{ name: "cold", address: "bc1qcold", protocol: 0 }],
    };
    expect((await t.client.post("/api/local/pool/endpoint", value)).body).toEqual(value);
    expect((await t.client.get("/api/local/pool/endpoint")).body).toEqual(value);
    const bad = await t.client.post<ErrorBody>("/api/local/pool/endpoint", {
      customPool: [{ coin: "BTC", name: "", address: "x", deal: 0 }],
    });
    expect(bad.body.error).toMatchObject({
      key: "lang.preset.err_incomplete",
      message: "Please fill in the information completely",
    });
  });

  test("built-in pools and the currency config come from the server", async () => {
    const pools = await t.client.get<{ brand: string; url: string; protocol: number }[]>("/api/pool/info/1");
    expect(pools.body.length).toBeGreaterThan(10);
    expect(pools.body.some((p) => p.brand === "BTC")).toBe(true);
    const cfg = await t.client.get<{
      order: string[];
      config: Record<string, { is_pub: number; category: string }>;
    }>("/api/currency/config");
    expect(cfg.body.order.slice(0, 4)).toEqual(["NGINX", "BTC", "FB", "ALEO"]);
    expect(cfg.body.config.BTC).toMatchObject({ is_pub: 1, category: "sha256" });
  });
});

describe("alerts, pump, RMS", () => {
  test("offline alert settings round-trip and are validated", async () => {
    const v = { device_offline: true, hashrate_drop: 30, push_key: "k" };
    // the push key (ServerChan's SendKey) is a secret: read back masked
    const shown = { ...v, push_key: "********" };
    expect((await t.client.post("/api/warning/setting", v)).body).toMatchObject(shown);
    expect((await t.client.get("/api/warning/setting")).body).toMatchObject(shown);
    expect((await t.client.post("/api/warning/setting", { hashrate_drop: 101 })).status).toBe(400);
  });

  test("pump time and RMS config round-trip", async () => {
    expect((await t.client.post("/api/pump/t/30")).body).toEqual({ t: 30 });
    expect((await t.client.get("/api/pump/t")).body).toEqual({ t: 30 });
    expect((await t.client.post("/api/pump/t/abc")).status).toBe(400);
    const rms = {
      password: "",
      port_mode: "custom",
      port_map: [{ server: 1000, local: 2000 }],
      client_name: "farm",
      announcement: "",
      other: "",
    };
    // a field left out takes its default: the batch window is off
    expect((await t.client.post("/api/rms/config", rms)).body).toEqual({ ...rms, batch_ms: 0 });
  });

  test("the RMS batch window is whole ms from 0 to 1000; anything else is refused and the stored value kept", async () => {
    const rms = { port_mode: "default", port_map: [], client_name: "", announcement: "", other: "" };
    expect((await t.client.post("/api/rms/config", { ...rms, batch_ms: 250 })).body).toMatchObject({
      batch_ms: 250,
    });
    for (const batch_ms of [-1, 1001, 2.5, "100", null]) {
      const res = await t.client.post<ErrorBody>("/api/rms/config", { ...rms, batch_ms });
      expect({ batch_ms, status: res.status, key: res.body.error?.key }).toEqual({
        batch_ms,
        status: 400,
        key: "lang.rms.err_batch",
      });
    }
    expect((await t.client.get("/api/rms/config")).body).toMatchObject({ batch_ms: 250 });
    expect((await t.client.post("/api/rms/config", { ...rms, batch_ms: 1000 })).body).toMatchObject({
      batch_ms: 1000,
    });
  });

  test("RMS settings stored by a release without the batch window read with it off", async () => {
    const { batch_ms: _, ...older } = RMS_DEFAULTS;
    t.app.ctx.settings.set(RMS_SETTING, { ...older, client_name: "older" });
    expect((await t.client.get("/api/rms/config")).body).toEqual({
      ...older,
      client_name: "older",
      batch_ms: 0,
    });
  });
});

describe("system", () => {
  test("reads real system figures and versions", async () => {
    const info = await t.client.get<{
      memory: { total: number };
      cpu: { count: number };
      disk: { total: number };
    }>("/api/sysinfo");
    expect(info.body.memory.total).toBeGreaterThan(0);
    expect(info.body.cpu.count).toBeGreaterThan(0);
    expect(info.body.disk.total).toBeGreaterThan(0);
    const stat = await t.client.get<{ uptime_seconds: number; online: number }>("/api/sys/stat");
    expect(stat.body.online).toBe(0);
    expect((await t.client.get<{ version: string }>("/api/local/version")).body.version).toMatch(
      /^\d+\.\d+\.\d+/,
    );
    expect(
      Date.parse((await t.client.get<{ start: string }>("/api/sys/starttime")).body.start),
    ).toBeLessThanOrEqual(Date.now());
    const uuid = (await t.client.get<{ uuid: string }>("/api/u/i")).body.uuid;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("every change is in the operation log", async () => {
    await t.client.post("/api/pump/t/5");
    const log = await t.client.get<{ message: string }[]>("/api/operation/log");
    expect(log.body[0]?.message).toBe("POST /api/pump/t/5");
  });
});

describe("group control", () => {
  test("a remote instance is added with its API token and confirmed certificate, listed online, and driven through the proxy call", async () => {
    const other = await startTestAppliance();
    try {
      const token = (await other.client.get<{ token: string }>("/api/remote/token")).body.token;
      const address = other.app.httpsUrl();
      const missing = await t.client.post<ErrorBody>("/api/remote/new", { address, token });
      expect(missing.body.error).toMatchObject({
        key: "lang.remote.err_required",
        message: "All three configurations are mandatory",
      });
      const { fingerprint } = (
        await t.client.post<{ fingerprint: string }>("/api/remote/inspect", { address })
      ).body;
      const { body } = await t.client.post<{ id: number }>("/api/remote/new", {
        address,
        token,
        remark: "rack 2",
        fingerprint,
      });
      const list = await t.client.get<{ id: number; state: string; remark: string; token?: string }[]>(
        "/api/remote/list?refresh=1",
      );
      const row = list.body.find((r) => r.id === body.id);
      expect(row).toMatchObject({ state: "online", remark: "rack 2" });
      expect(row?.token).toBeUndefined();
      const ports = await t.client.get<{ items: unknown[] }>(`/api/remote/q/${body.id}/GET/ports`);
      expect(ports.status).toBe(200);
      expect(ports.body.items).toEqual([]);
      // a wrong token is refused by the remote; the same address keeps its pin
      await t.client.post(`/api/remote/${body.id}`, {
        address,
        token: "wrong-token-wrong",
        remark: "rack 2",
      });
      expect((await t.client.get(`/api/remote/q/${body.id}/GET/ports`)).status).toBe(401);
      expect((await t.client.del(`/api/remote/${body.id}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("web access (restarts the server in-process)", () => {
  async function until(url: string, ok: (res: Response) => boolean): Promise<Response> {
    for (let i = 0; i < 100; i++) {
      try {
        const res = await fetch(url, { tls: { rejectUnauthorized: false } });
        if (ok(res)) return res;
      } catch {
        // not listening yet
      }
      await Bun.sleep(50);
    }
    throw new Error(`${url} never answered as expected`);
  }

  test("HTTPS on serves the console over TLS with the appliance certificate; off again serves plain HTTP", async () => {
    const other = await startTestAppliance();
    try {
      const base = other.app.url();
      expect((await other.client.post<{ enabled: boolean }>("/api/web/tls/1")).body.enabled).toBe(true);
      const https = base.replace("http://", "https://");
      const res = await until(`${https}/healthz`, (r) => r.status === 200);
      expect(res.status).toBe(200);
      const c = new Client(https);
      c.token = other.client.token;
      expect((await c.get<{ enabled: boolean }>("/api/web/tls")).body.enabled).toBe(true);
      await c.post("/api/web/tls/0");
      await until(`${base}/healthz`, (r) => r.status === 200);
      expect((await other.client.post<ErrorBody>("/api/web/tls/2")).body.error.key).toBe("lang.tls.err_set");
    } finally {
      await other.close();
    }
  });

  test("a new web port takes effect at once; a proxy port's number is refused", async () => {
    const other = await startTestAppliance();
    try {
      const current = Number(new URL(other.app.url()).port);
      expect((await other.client.get<{ port: number; stored: number }>("/api/web/tls")).body).toMatchObject({
        port: current,
        stored: 8080,
      });
      const bad = await other.client.post<ErrorBody>("/api/web/port/restart", { port: 70000 });
      expect(bad.body.error.key).toBe("lang.webport.err_range");
      const port = freePort();
      expect((await other.client.post("/api/web/port/restart", { port })).status).toBe(200);
      await until(`http://127.0.0.1:${port}/healthz`, (r) => r.status === 200);
      const moved = new Client(`http://127.0.0.1:${port}`);
      moved.token = other.client.token;
      const proxyPort = freePort();
      await moved.post("/api/port/new", portBody({ port: proxyPort }));
      const clash = await moved.post<ErrorBody>("/api/web/port/restart", { port: proxyPort });
      expect(clash.body.error.key).toBe("lang.proxy.err_occupied");
      // a port another program holds is refused, and the console keeps answering where it is
      const holder = Bun.listen({ hostname: "0.0.0.0", port: freePort(), socket: { data() {} } });
      try {
        const held = await moved.post<ErrorBody>("/api/web/port/restart", { port: holder.port });
        expect(held.status).toBe(409);
        expect(held.body.error.key).toBe("lang.proxy.err_occupied");
        expect((await moved.get<{ port: number }>("/api/web/tls")).body.port).toBe(port);
      } finally {
        holder.stop(true);
      }
    } finally {
      await other.close();
    }
  });
});
