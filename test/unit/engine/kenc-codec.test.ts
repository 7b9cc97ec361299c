/**
 * The KENC codec against the vector of docs/kenc.md, which test/support/kenc/make-vector.py made
 * with the `openssl kdf` command and Python's `cryptography` AES-GCM, and against the WebCrypto
 * implementation the end-to-end tests use as the farm-side client.
 */
import { describe, expect, test } from "bun:test";
import {
  Direction,
  deriveKey,
  FrameOpener,
  FrameSealer,
  KencError,
  makeHello,
  readHello,
} from "../../../appliance/engine/transport/kenc-codec.ts";
import { webDeriveKey, webSeal } from "../../support/kenc/web-kenc.ts";
import vector from "./kenc-vector.json";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => new Uint8Array(Buffer.from(h, "hex"));
const clientRandom = bytes(vector.client_hello).slice(5);
const serverRandom = bytes(vector.server_hello).slice(5);
const c2s = bytes(vector.key_c2s);
const frames = vector.client_to_server.map((f) => bytes(f.frame));
const text = (parts: Uint8Array[]) => parts.map((p) => Buffer.from(p).toString()).join("");

describe("KENC codec against the independent vector", () => {
  test("hellos and HKDF-SHA256 keys", () => {
    expect(hex(makeHello(clientRandom))).toBe(vector.client_hello);
    expect(hex(makeHello(serverRandom))).toBe(vector.server_hello);
    expect(hex(readHello(bytes(vector.client_hello)) ?? new Uint8Array(0))).toBe(hex(clientRandom));
    const key = vector.kenc_key;
    expect(hex(deriveKey(key, Direction.clientToServer, clientRandom, serverRandom))).toBe(vector.key_c2s);
    expect(hex(deriveKey(key, Direction.serverToClient, clientRandom, serverRandom))).toBe(vector.key_s2c);
  });

  test("frames seal to the vector's bytes in both directions", () => {
    const up = new FrameSealer(c2s, Direction.clientToServer);
    for (const f of vector.client_to_server) expect(hex(up.seal(Buffer.from(f.plain)))).toBe(f.frame);
    const down = new FrameSealer(bytes(vector.key_s2c), Direction.serverToClient);
    for (const f of vector.server_to_client) expect(hex(down.seal(Buffer.from(f.plain)))).toBe(f.frame);
  });

  test("the vector's frames open, whole or a byte at a time", () => {
    const whole = new FrameOpener(c2s, Direction.clientToServer);
    const all = Buffer.concat(frames);
    expect(text(whole.push(all))).toBe(vector.client_to_server.map((f) => f.plain).join(""));
    const trickle = new FrameOpener(c2s, Direction.clientToServer);
    const out: Uint8Array[] = [];
    for (const b of all) out.push(...trickle.push(Uint8Array.of(b)));
    expect(text(out)).toBe(vector.client_to_server.map((f) => f.plain).join(""));
    expect(trickle.buffered).toBe(0);
  });

  test("the WebCrypto client of the end-to-end tests makes the same keys and frames", async () => {
    const k = await webDeriveKey(vector.kenc_key, "c2s", clientRandom, serverRandom);
    expect(hex(k.raw)).toBe(vector.key_c2s);
    for (const [i, f] of vector.client_to_server.entries())
      expect(hex(await webSeal(k.key, 1, i, new TextEncoder().encode(f.plain)))).toBe(f.frame);
  });
});

describe("KENC codec refusals", () => {
  const refused = (stream: Uint8Array, key = c2s) => {
    const o = new FrameOpener(key, Direction.clientToServer);
    try {
      o.push(stream);
      return null;
    } catch (e) {
      if (!(e instanceof KencError)) throw e;
      return e.message;
    }
  };
  const [f0, f1] = frames as [Uint8Array, Uint8Array];

  test("wrong key", () => {
    expect(refused(f0, bytes(vector.key_s2c))).toContain("first frame does not authenticate (wrong KENC key");
  });
  test("replayed frame", () => {
    expect(refused(Buffer.concat([f0, f0]))).toBe("frame replayed or out of order");
  });
  test("reordered frames", () => {
    expect(refused(Buffer.concat([f1, f0]))).toBe("first frame out of order");
  });
  test("a frame of the other direction (reflected)", () => {
    expect(refused(bytes(vector.server_to_client[0]?.frame ?? ""))).toBe("first frame out of order");
  });
  test("truncated frame followed by the next one", () => {
    expect(refused(Buffer.concat([f0.subarray(0, f0.length - 1), f1]))).toContain(
      "first frame does not authenticate",
    );
  });
  test("a flipped ciphertext bit or a changed length", () => {
    const flipped = new Uint8Array(f0);
    flipped[20] = (flipped[20] as number) ^ 1;
    expect(refused(flipped)).toContain("does not authenticate");
    const longer = Buffer.concat([f0, f1]);
    longer[1] = (longer[1] as number) + 1;
    expect(refused(longer)).toContain("does not authenticate");
  });
  test("a length out of range and a hello that is not KENC", () => {
    expect(refused(Uint8Array.of(0x40, 0x01, 0, 0))).toBe("frame length out of range");
    expect(refused(Uint8Array.of(0, 0))).toBe("frame length out of range");
    expect(() => readHello(new TextEncoder().encode('{"id":1'))).toThrow("not a KENC hello");
    expect(readHello(bytes(vector.client_hello).subarray(0, 10))).toBeNull();
  });
});
