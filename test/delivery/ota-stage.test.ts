/**
 * Building a release bundle from a source tree: the application is bundled for the Bun runtime,
 * the console copied, the bundle signed, and the code reports the bundle's version however it reads
 * it (package.json import or the PITHEAD_VERSION define).
 */
import { expect, test } from "bun:test";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyBundle } from "../../appliance/ops/ota/bundle.ts";
import { buildAppStage } from "../../appliance/ops/ota/stage.ts";
import { throwawayKeys } from "./ota-fixtures.ts";

test("a staged release runs and reports the bundle's version", async () => {
  const root = await mkdtemp(join(tmpdir(), "pithead-src-"));
  await mkdir(join(root, "appliance"));
  await mkdir(join(root, "ui-dist"));
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "x", version: "0.0.1" }));
  await writeFile(
    join(root, "appliance/main.ts"),
    `import pkg from "../package.json" with { type: "json" };
declare const PITHEAD_VERSION: string | undefined;
console.log(pkg.version, typeof PITHEAD_VERSION === "string" ? PITHEAD_VERSION : "none", process.argv[2]);`,
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
  expect([...files.keys()].sort()).toEqual(["app/main.js", "console/index.html"]);
  const app = join(root, "unpacked.js");
  await writeFile(app, files.get("app/main.js") as Uint8Array);
  const run = Bun.spawnSync([process.execPath, app, "run"]);
  expect(run.stdout.toString().trim()).toBe("2.0.0 2.0.0 run");
});
