/**
 * A Kaspa job as the test pool builds it and as both notify forms carry it, written independently
 * of the engine: the pre-PoW hash's four little-endian u64 words as exact decimal text (they are
 * above 2^53, so no JSON number may carry them), or 80 hex digits (hash ‖ timestamp LE u64).
 */
import { randomBytes } from "node:crypto";
import { type HeavyHashAlgorithm, KASPA, KHeavyHasher } from "./kheavyhash.ts";

export interface KaspaJob {
  id: string;
  hasher: KHeavyHasher;
}

export function makeJob(id: string, algorithm: HeavyHashAlgorithm = KASPA): KaspaJob {
  const prePow = new Uint8Array(randomBytes(32));
  // a real timestamp in milliseconds, kept below 2^53 like the chain's
  const timestamp = BigInt(Date.now()) + BigInt(Math.floor(Math.random() * 1000));
  return { id, hasher: new KHeavyHasher(prePow, timestamp, algorithm) };
}

export function wordsText(prePow: Uint8Array): string {
  const v = new DataView(prePow.buffer, prePow.byteOffset, 32);
  return [0, 1, 2, 3].map((i) => v.getBigUint64(i * 8, true).toString()).join(",");
}

export const toHex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export function leU64Hex(v: bigint): string {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return toHex(b);
}

/** The params of mining.notify in the given form, as JSON text. */
export function notifyParamsText(job: KaspaJob, form: "u64" | "hex"): string {
  const { prePow, timestamp } = job.hasher;
  return form === "hex"
    ? `["${job.id}","${toHex(prePow)}${leU64Hex(timestamp)}"]`
    : `["${job.id}",[${wordsText(prePow)}],${timestamp}]`;
}

/** Reads either notify form from a raw line; null if it is neither. */
export function readNotify(line: string): { id: string; prePow: Uint8Array; timestamp: bigint } | null {
  const u64 =
    /"params"\s*:\s*\[\s*"([^"]+)"\s*,\s*\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]\s*,\s*(\d+)\s*\]/.exec(
      line,
    );
  if (u64 !== null) {
    const prePow = new Uint8Array(32);
    const v = new DataView(prePow.buffer);
    for (let i = 0; i < 4; i++) v.setBigUint64(i * 8, BigInt(u64[i + 2] as string), true);
    return { id: u64[1] as string, prePow, timestamp: BigInt(u64[6] as string) };
  }
  const hex = /"params"\s*:\s*\[\s*"([^"]+)"\s*,\s*"([0-9a-fA-F]{80})"\s*\]/.exec(line);
  if (hex === null) return null;
  const bytes = Buffer.from(hex[2] as string, "hex");
  return {
    id: hex[1] as string,
    prePow: new Uint8Array(bytes.subarray(0, 32)),
    timestamp: new DataView(bytes.buffer, bytes.byteOffset + 32, 8).getBigUint64(0, true),
  };
}
