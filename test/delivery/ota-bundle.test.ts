/** Bundle signing and verification: every way a bundle can be wrong is refused with its own reason. */
import { describe, expect, test } from "bun:test";
import { buildBundle, signBundle, verifyBundle } from "../../appliance/ops/ota/bundle.ts";
import { BundleError, decodeContainer, encodeContainer } from "../../appliance/ops/ota/container.ts";
import { compareVersions } from "../../appliance/ops/ota/version.ts";
import { releaseDir, signedBundle, throwawayKeys } from "./ota-fixtures.ts";

const keys = throwawayKeys();

function refusal(bundle: Uint8Array, publicKey = keys.publicKey): BundleError {
  try {
    verifyBundle(bundle, publicKey);
  } catch (e) {
    if (e instanceof BundleError) return e;
    throw e;
  }
  throw new Error("bundle was accepted");
}

describe("OTA bundle", () => {
  test("a signed bundle verifies and yields its files", async () => {
    const { manifest, files } = verifyBundle(await signedBundle("1.2.3", keys.privateKey), keys.publicKey);
    expect(manifest.version).toBe("1.2.3");
    expect([...files.keys()].sort()).toEqual(["app/main.js", "console/assets/app.js", "console/index.html"]);
    expect(new TextDecoder().decode(files.get("console/index.html"))).toContain("Pithead 1.2.3");
  });

  test("a tampered file is refused", async () => {
    const bundle = await signedBundle("1.2.3", keys.privateKey);
    const tampered = bundle.slice();
    tampered[tampered.length - 3] = (tampered[tampered.length - 3] as number) ^ 0x20;
    const e = refusal(tampered);
    expect(e.code).toBe("hash_mismatch");
    expect(e.message).toContain("was altered");
  });

  test("a tampered manifest breaks the signature", async () => {
    const bundle = await signedBundle("1.2.3", keys.privateKey);
    const text = new TextDecoder().decode(bundle);
    const at = text.indexOf('"version":"1.2.3"') + '"version":"'.length;
    const tampered = bundle.slice();
    tampered[at] = "9".charCodeAt(0);
    expect(refusal(tampered).code).toBe("bad_signature");
  });

  test("a bundle signed with another key is refused", async () => {
    const other = throwawayKeys();
    const e = refusal(await signedBundle("1.2.3", other.privateKey));
    expect(e.code).toBe("bad_signature");
    expect(e.message).toContain("release key");
  });

  test("a truncated bundle is refused at every cut", async () => {
    const bundle = await signedBundle("1.2.3", keys.privateKey);
    const c = decodeContainer(bundle);
    const payloadStart = bundle.length - c.payload.length;
    for (const cut of [4, 12, 40, payloadStart - 10, payloadStart + 5, bundle.length - 1]) {
      const e = refusal(bundle.subarray(0, cut));
      expect(e.code).toBe("truncated");
      expect(e.message).toContain("truncated");
    }
  });

  test("an unsigned bundle and a foreign file are refused", async () => {
    const unsigned = await buildBundle(await releaseDir("1.0.0"), { version: "1.0.0", minRuntime: "1.0.0" });
    expect(refusal(unsigned).code).toBe("unsigned");
    expect(refusal(new TextEncoder().encode("#!/bin/sh\necho hi\n")).code).toBe("not_a_bundle");
  });

  test("a signed manifest with a path outside the release is refused", async () => {
    const c = decodeContainer(
      await buildBundle(await releaseDir("1.0.0"), { version: "1.0.0", minRuntime: "1.0.0" }),
    );
    const m = JSON.parse(new TextDecoder().decode(c.manifestBytes));
    m.files["app/../../etc/cron.d/x"] = m.files["app/main.js"];
    m.sizes["app/../../etc/cron.d/x"] = 0;
    const evil = encodeContainer({ ...c, manifestBytes: new TextEncoder().encode(JSON.stringify(m)) });
    const e = refusal(signBundle(evil, keys.privateKey));
    expect(e.code).toBe("bad_manifest");
    expect(e.message).toContain("unsafe path");
  });

  test("re-signing replaces the signature", async () => {
    const other = throwawayKeys();
    const resigned = signBundle(await signedBundle("1.0.0", other.privateKey), keys.privateKey);
    expect(verifyBundle(resigned, keys.publicKey).manifest.version).toBe("1.0.0");
  });

  test("versions compare by semver precedence", () => {
    expect(compareVersions("1.10.0", "1.9.9")).toBeGreaterThan(0);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBeLessThan(0);
    expect(compareVersions("1.0.0-rc.2", "1.0.0-rc.10")).toBeLessThan(0);
    expect(compareVersions("2.0.0", "2.0.0")).toBe(0);
  });
});
