/**
 * Building a release bundle from a source tree: the application is bundled for the Bun runtime with
 * its worker entries beside it (found from the bundle as from source), the console copied, the bundle signed, and the code reports the bundle's version however it reads
 * it (package.json import or the PITHEAD_VERSION define).
 */
import { expect, test } from "bun:test";
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { verifyBundle } from "../../appliance/ops/ota/bundle.ts";
import { buildAppStage } from "../../appliance/ops/ota/stage.ts";
import { FEE_AUDIT_WORKER, WORKER_ENTRIES } from "../../appliance/workers.ts";
import { throwawayKeys } from "./ota-fixtures.ts";

test("a staged release runs and reports the bundle's version", async () => {
  const root = await mkdtemp(join(tmpdir(), "pithead-src-"));
  await mkdir(join(root, "appliance"));
  await mkdir(join(root, "ui-dist"));
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "x", version: "0.0.1" }));
  // the real worker locator, and a worker at each entry, so the bundled main must find them
  await cp(join(import.meta.dir, "../../appliance/workers.ts"), join(root, "appliance/workers.ts"));
  for (const w of WORKER_ENTRIES) {
    await mkdir(dirname(join(root, "appliance", w)), { recursive: true });
    await writeFile(join(root, "appliance", w), `self.onmessage = () => postMessage(${JSON.stringify(w)});`);
  }
  await writeFile(
    join(root, "appliance/main.ts"),
    `import pkg from "../package.json" with { type: "json" };
import { FEE_AUDIT_WORKER, workerUrl } from "./workers.ts";
declare const PITHEAD_VERSION: string | undefined;
const w = new Worker(workerUrl(FEE_AUDIT_WORKER));
w.onmessage = (e) => {
  console.log(pkg.version, typeof PITHEAD_VERSION === "string" ? PITHEAD_VERSION : "none", process.argv[2], e.data);
  w.terminate();
};
w.postMessage(0);`,
  );
  await writeFile(join(root, "ui-dist/index.html"), "<!doctype html><title>console</title>");
  const keys = throwawayKeys();
  const keyFile = join(root, "release.key");
  await writeFile(keyFile, keys.privateKey);
  const outFile = join(root, "out.bundle");
  await buildAppStage({
    root,
    consoleDir: join(root, "ui-dist"),
    stage: join(root, "stage"),
    outFile,
    version: "2.0.0",
    keyFile,
  });
  const { manifest, files } = verifyBundle(
    new Uint8Array(await Bun.file(outFile).arrayBuffer()),
    keys.publicKey,
  );
  expect(manifest.version).toBe("2.0.0");
  const workers = WORKER_ENTRIES.map((w) => `app/${w.replace(/\.ts$/, ".js")}`);
  expect([...files.keys()].sort()).toEqual(["app/main.js", ...workers, "console/index.html"].sort());
  const unpacked = join(root, "unpacked");
  for (const [name, bytes] of files) {
    await mkdir(dirname(join(unpacked, name)), { recursive: true });
    await writeFile(join(unpacked, name), bytes);
  }
  const run = Bun.spawnSync([process.execPath, join(unpacked, "app/main.js"), "run"]);
  expect(run.stdout.toString().trim()).toBe(`2.0.0 2.0.0 run ${FEE_AUDIT_WORKER}`);
});
