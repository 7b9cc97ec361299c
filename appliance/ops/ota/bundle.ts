/**
 * Build, sign and verify OTA bundles (see container.ts for the file layout and manifest.ts for what
 * the signature covers). Keys are PEM: PKCS#8 private, SPKI public, both Ed25519 (node:crypto).
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { BundleError, decodeContainer, encodeContainer } from "./container.ts";
import { type Manifest, manifestProblem } from "./manifest.ts";

export interface VerifiedBundle {
  manifest: Manifest;
  /** file path → bytes, every one checked against its sha256 */
  files: Map<string, Uint8Array>;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Packs every file under `dir` (app/, console/, optionally the executable `pithead`), unsigned. */
export async function buildBundle(
  dir: string,
  meta: { version: string; minRuntime: string },
): Promise<Uint8Array> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
  const files: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  const chunks: Uint8Array[] = [];
  for (const p of paths) {
    const bytes = new Uint8Array(await Bun.file(join(dir, p)).arrayBuffer());
    files[p] = sha256Hex(bytes);
    sizes[p] = bytes.length;
    chunks.push(bytes);
  }
  const manifest: Manifest = {
    format: 1,
    version: meta.version,
    min_runtime: meta.minRuntime,
    created: new Date().toISOString(),
    files,
    sizes,
  };
  const problem = manifestProblem(manifest);
  if (problem) throw new BundleError("bad_manifest", `cannot build bundle from ${dir}: ${problem}`);
  const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest));
  return encodeContainer({ manifestBytes, signature: new Uint8Array(0), payload: Buffer.concat(chunks) });
}

/** Returns the bundle with its signature replaced by one made with `privateKeyPem`. */
export function signBundle(bundle: Uint8Array, privateKeyPem: string): Uint8Array {
  const c = decodeContainer(bundle);
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error("the signing key is not an Ed25519 private key");
  const signature = new Uint8Array(sign(null, c.manifestBytes, key));
  return encodeContainer({ ...c, signature });
}

/**
 * Checks signature, manifest and every file hash, in that order, and returns the files. Throws a
 * BundleError whose message says what is wrong; nothing is written anywhere.
 */
export function verifyBundle(bundle: Uint8Array, publicKeyPem: string): VerifiedBundle {
  const c = decodeContainer(bundle);
  if (c.signature.length === 0) throw new BundleError("unsigned", "bundle is not signed");
  const key = createPublicKey(publicKeyPem);
  if (!verify(null, c.manifestBytes, key, c.signature)) {
    throw new BundleError(
      "bad_signature",
      "bundle signature does not match the release key (wrong key or altered)",
    );
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(c.manifestBytes));
  } catch {
    throw new BundleError("bad_manifest", "bundle manifest is not JSON");
  }
  const problem = manifestProblem(manifest);
  if (problem) throw new BundleError("bad_manifest", problem);
  const m = manifest as Manifest;
  const files = new Map<string, Uint8Array>();
  let at = 0;
  for (const [path, hash] of Object.entries(m.files)) {
    const size = m.sizes[path] as number;
    if (at + size > c.payload.length) throw new BundleError("truncated", `bundle is truncated (in ${path})`);
    const bytes = c.payload.subarray(at, at + size);
    at += size;
    if (sha256Hex(bytes) !== hash)
      throw new BundleError("hash_mismatch", `file ${path} was altered (sha256 mismatch)`);
    files.set(path, bytes);
  }
  if (at !== c.payload.length)
    throw new BundleError("trailing_data", "bundle has unexpected data after its files");
  return { manifest: m, files };
}
