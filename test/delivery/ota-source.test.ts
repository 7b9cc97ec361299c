/** The update source: a URL answering `{version, url?, notes?}` gives the console its new-version hint. */
import { afterAll, expect, test } from "bun:test";
import { checkUpdateSource, versionInfo } from "../../appliance/ops/ota/releases.ts";
import { BUILT_IN_VERSION } from "../../appliance/ops/ota/version.ts";

const source = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/newer.json")
      return Response.json({ version: "999.0.0", url: "/b/999.bundle", notes: "faster" });
    if (path === "/same.json") return Response.json({ version: BUILT_IN_VERSION });
    if (path === "/junk.json") return new Response("{not json");
    return new Response("no", { status: 404 });
  },
});
const base = `http://127.0.0.1:${source.port}`;
afterAll(() => source.stop(true));

test("a newer version at the source is offered, with its bundle URL resolved", async () => {
  expect(await checkUpdateSource(`${base}/newer.json`)).toEqual({
    version: "999.0.0",
    url: `${base}/b/999.bundle`,
    notes: "faster",
  });
  const info = await versionInfo({ updateSource: `${base}/newer.json` });
  expect(info).toMatchObject({ version: BUILT_IN_VERSION, latest: "999.0.0", update_available: true });
});

test("the same version, a broken or missing source, or none offer nothing", async () => {
  expect((await versionInfo({ updateSource: `${base}/same.json` })).update_available).toBe(false);
  for (const path of ["/junk.json", "/missing.json"]) {
    expect(await versionInfo({ updateSource: `${base}${path}` })).toMatchObject({
      latest: null,
      update_available: false,
    });
  }
  expect((await versionInfo({ updateSource: null })).latest).toBeNull();
});
