/**
 * The bundle file: one flat binary container, so an upload is a single file and nothing but this
 * module parses it.
 *
 *   "PITHEADB" | u8 format=1 | u32 manifest length | manifest JSON | u16 signature length | signature |
 *   file bytes, concatenated in manifest order (lengths from manifest.sizes)
 *
 * The Ed25519 signature is detached from the manifest (it signs the manifest's exact bytes), and the
 * manifest pins every file by sha256, so the signature covers the whole bundle.
 */
export const MAGIC = new TextEncoder().encode("PITHEADB");
const HEADER = MAGIC.length + 1 + 4;

export interface Container {
  manifestBytes: Uint8Array;
  signature: Uint8Array;
  payload: Uint8Array;
}

export class BundleError extends Error {
  constructor(
    readonly code:
      | "not_a_bundle"
      | "truncated"
      | "trailing_data"
      | "unsigned"
      | "bad_signature"
      | "bad_manifest"
      | "hash_mismatch",
    message: string,
  ) {
    super(message);
  }
}

export function encodeContainer(c: Container): Uint8Array {
  const out = new Uint8Array(HEADER + c.manifestBytes.length + 2 + c.signature.length + c.payload.length);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[MAGIC.length] = 1;
  view.setUint32(MAGIC.length + 1, c.manifestBytes.length);
  let at = HEADER;
  out.set(c.manifestBytes, at);
  at += c.manifestBytes.length;
  view.setUint16(at, c.signature.length);
  at += 2;
  out.set(c.signature, at);
  at += c.signature.length;
  out.set(c.payload, at);
  return out;
}

export function decodeContainer(bytes: Uint8Array): Container {
  const head = Math.min(bytes.length, MAGIC.length);
  if (bytes.length === 0 || !MAGIC.subarray(0, head).every((b, i) => bytes[i] === b)) {
    throw new BundleError("not_a_bundle", "not a Pithead bundle (wrong file type)");
  }
  if (bytes.length < HEADER) throw new BundleError("truncated", "bundle is truncated (header)");
  if (bytes[MAGIC.length] !== 1) throw new BundleError("not_a_bundle", "unsupported bundle format version");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const manifestLength = view.getUint32(MAGIC.length + 1);
  let at = HEADER;
  if (bytes.length < at + manifestLength + 2)
    throw new BundleError("truncated", "bundle is truncated (manifest)");
  const manifestBytes = bytes.subarray(at, at + manifestLength);
  at += manifestLength;
  const sigLength = view.getUint16(at);
  at += 2;
  if (bytes.length < at + sigLength) throw new BundleError("truncated", "bundle is truncated (signature)");
  const signature = bytes.subarray(at, at + sigLength);
  return { manifestBytes, signature, payload: bytes.subarray(at + sigLength) };
}
