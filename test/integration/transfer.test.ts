import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { declaredRangeBomb } from "../support/xlsx-bomb.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type Problem = { row: number; key: string; message: string };
type ImportReply = {
  imported?: number;
  ids?: number[];
  ignored?: Problem[];
  error?: Problem;
  errors?: Problem[];
};

async function upload(name: string, bytes: Uint8Array<ArrayBuffer> | string) {
  const form = new FormData();
  form.set("file", new Blob([bytes]), name);
  const res = await fetch(`${t.app.url()}/api/ports/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.client.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as ImportReply };
}

async function portCount(): Promise<number> {
  return (await t.client.get<{ items: unknown[] }>("/api/ports")).body.items.length;
}

function doc(ports: Record<string, unknown>[]) {
  return JSON.stringify({
    format: "pithead-ports",
    version: 1,
    exported_at: new Date().toISOString(),
    ports,
  });
}

const row = (o: Record<string, unknown> = {}) => ({
  ...portBody({ port: freePort() }),
  category: "sha256",
  ...o,
});

describe("export then import", () => {
  test("an exported JSON file imports into another appliance with the same ports", async () => {
    await t.client.post("/api/port/new", portBody({ port: freePort(), name: "to-export" }));
    const res = await fetch(`${t.app.url()}/api/ports/export`, {
      headers: { authorization: `Bearer ${t.client.token}` },
    });
    expect(res.headers.get("content-disposition")).toContain(".json");
    const text = await res.text();
    const other = await startTestAppliance();
    try {
      const form = new FormData();
      form.set("file", new Blob([text]), "ports.json");
      const imp = await fetch(`${other.app.url()}/api/ports/import`, {
        method: "POST",
        headers: { authorization: `Bearer ${other.client.token}` },
        body: form,
      });
      expect(imp.status).toBe(200);
      const items = (await other.client.get<{ items: { server: { name: string } }[] }>("/api/ports")).body
        .items;
      expect(items.map((i) => i.server.name)).toContain("to-export");
    } finally {
      await other.close();
    }
  });

  test("an xlsx export imports back after the rows are deleted", async () => {
    const id = (
      await t.client.post<{ id: number }>("/api/port/new", portBody({ port: freePort(), name: "via-excel" }))
    ).body.id;
    const res = await fetch(`${t.app.url()}/api/ports/export?format=xlsx`, {
      headers: { authorization: `Bearer ${t.client.token}` },
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("content-disposition")).toContain(".xlsx");
    const all = (await t.client.get<{ items: { server: { id: number } }[] }>("/api/ports")).body.items.map(
      (i) => i.server.id,
    );
    await t.client.post("/api/ports/batch", { action: "delete", ids: all });
    const imp = await upload("ports.xlsx", bytes);
    expect(imp.status).toBe(200);
    expect(imp.body.imported).toBe(all.length);
    const names = (
      await t.client.get<{ items: { server: { name: string } }[] }>("/api/ports")
    ).body.items.map((i) => i.server.name);
    expect(names).toContain("via-excel");
    expect(id).toBeGreaterThan(0);
  });
});

describe("import errors (spec §5)", () => {
  test("a file that is neither .json nor .xlsx names the allowed formats", async () => {
    for (const name of ["ports.xls", "ports.csv", "ports.txt"]) {
      const res = await upload(name, "port,name\n1,x\n");
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        key: "lang.import.err_format",
        message: "Unsupported file format: only .json and .xlsx files can be imported",
      });
    }
  });

  test("each bad row is reported with its number and nothing is imported", async () => {
    const before = await portCount();
    const dup = freePort();
    const res = await upload(
      "ports.json",
      doc([
        row(),
        row({ port: dup }),
        row({ port: dup }),
        row({ wallets: [{ addr: "", device: "d", pool_address: "127.0.0.1:1", ratio: 0.1 }] }),
        row({ category: "" }),
        row({ port: 70000 }),
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => [e.row, e.key])).toEqual([
      [3, "lang.import.err_duplicate"],
      [4, "lang.import.err_wallet"],
      [5, "lang.import.err_category"],
      [6, "lang.import.err_params"],
    ]);
    expect(res.body.error?.message).toStartWith("Row 3: Duplicate port");
    expect(await portCount()).toBe(before);
  });

  test("a port number already configured, or held by another program, is reported", async () => {
    const taken = freePort();
    await t.client.post("/api/port/new", portBody({ port: taken }));
    const holder = Bun.listen({ hostname: "0.0.0.0", port: 0, socket: { data() {} } });
    try {
      const res = await upload("p.json", doc([row({ port: taken }), row({ port: holder.port, status: 1 })]));
      expect(res.body.errors?.map((e) => [e.row, e.key])).toEqual([
        [1, "lang.import.err_duplicate"],
        [2, "lang.import.err_occupied"],
      ]);
    } finally {
      holder.stop(true);
    }
  });

  test("an unsupported coin is ignored and the rest is imported", async () => {
    const before = await portCount();
    const res = await upload("p.json", doc([row({ currency: "OLDCOIN" }), row()]));
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    expect(res.body.ignored).toEqual([expect.objectContaining({ row: 1, key: "lang.import.err_coin" })]);
    expect(await portCount()).toBe(before + 1);
  });

  test("a ZEC port (Equihash, a family this version proxies) is imported", async () => {
    const before = await portCount();
    const res = await upload("p.json", doc([row(), row({ currency: "ZEC", category: "equihash" })]));
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(2);
    expect(res.body.ignored).toEqual([]);
    expect(await portCount()).toBe(before + 2);
  });

  test("a JSON file that is not a port export is refused", async () => {
    const res = await upload("p.json", "{ not json");
    expect(res.status).toBe(400);
    expect(res.body.error?.key).toStartWith("lang.import.");
  });
});

/** The zip container SheetJS bundles, as far as these tests use it. */
describe("hostile uploads and bodies (nothing heavy on the event loop)", () => {
  test("a 10 KB xlsx that declares A1:XFD1048576 is refused from its declared size", async () => {
    const bytes = declaredRangeBomb("A1:XFD1048576");
    expect(bytes.length).toBeLessThan(20_000);
    const before = await portCount();
    const res = await upload("bomb.xlsx", bytes);
    expect(res.status).toBe(400);
    expect(res.body.error?.key).toBe("lang.import.err_limits");
    expect(await portCount()).toBe(before);
  });

  test("more ports than an import may hold are refused as a whole", async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ port: 1 + (i % 65000), currency: "BTC" }));
    const res = await upload("many.json", doc(many));
    expect(res.body.error?.key).toBe("lang.import.err_limits");
  });

  test("a file over 8 MB is refused before it is parsed", async () => {
    const res = await upload("big.json", "x".repeat(9 * 1024 * 1024));
    expect(res.status).toBe(413);
    expect(res.body.error?.key).toBe("lang.import.err_limits");
  });

  test("anyone's body to a login call is capped at 4 KB, with or without a length header", async () => {
    const big = JSON.stringify({ username: "admin", password: "x".repeat(100_000) });
    const declared = await fetch(`${t.app.url()}/api/_/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: Problem }).error.key).toBe("lang.err.too_large");
    const chunked = await fetch(`${t.app.url()}/api/_/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 50; i++) c.enqueue(new TextEncoder().encode("[".repeat(2000)));
          c.close();
        },
      }),
    });
    expect(chunked.status).toBe(413);
  });

  test("an admin's body nested 100,000 deep is refused before it is parsed, one nested in a string is not", async () => {
    const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const res = await t.client.call<{ error: Problem }>("POST", "/api/port/new", nested);
    expect(res.status).toBe(400);
    expect(res.body.error.key).toBe("lang.err.bad_json");
    // 80 brackets inside a string (after an escaped quote) are text, not nesting
    const named = await t.client.post("/api/port/new", {
      ...portBody({ port: freePort() }),
      name: `\\"${"[{".repeat(40)}`,
    });
    expect((named.body.error as { key?: string } | undefined)?.key).not.toBe("lang.err.bad_json");
  });

  test("an admin's JSON body is capped too (a port is a few KB, not megabytes)", async () => {
    const res = await t.client.post("/api/port/new", {
      ...portBody({ port: freePort() }),
      name: "n".repeat(300_000),
    });
    expect(res.status).toBe(413);
    expect((res.body.error as { key: string }).key).toBe("lang.err.too_large");
  });
});
