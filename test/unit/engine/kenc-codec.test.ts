/**
 * The KENC codec against the vector of docs/kenc.md, which test/support/kenc/make-vector.py made
 * with the `openssl kdf` command and Python's `cryptography` AES-GCM, and against the WebCrypto
 * implementation the end-to-end tests use as the farm-side client. Version 2 (this one's) and
 * version 1 (earlier clients, which a port still serves) differ only in whether a frame carries its nonce.
 */
import { describe, expect, test } from "bun:test";
import {
  Direction,
  deriveKey,
  FrameOpener,
  FrameSealer,
  KENC_VERSION,
  KencError,
  makeHello,
  readHello,
} from "../../../appliance/engine/transport/kenc-codec.ts";
import { webDeriveKey, webSeal } from "../../support/kenc/web-kenc.ts";
import vector from "./kenc-vector.json";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => new Uint8Array(Buffer.from(h, "hex"));
const c2s = bytes(vector.key_c2s);
const s2c = bytes(vector.key_s2c);
const text = (parts: Uint8Array[]) => parts.map((p) => Buffer.from(p).toString()).join("");
const [v2, v1] = vector.versions as [(typeof vector.versions)[0], (typeof vector.versions)[0]];
const clientRandom = bytes(v2.client_hello).slice(5);
const serverRandom = bytes(v2.server_hello).slice(5);

test("this codec speaks version 2, the vector's first", () => {
  expect(KENC_VERSION).toBe(2);
  expect(v2.version).toBe(2);
  expect(v1.version).toBe(1);
  // 12 bytes of nonce less per frame
  for (const [i, f] of v2.client_to_server.entries())
    expect(bytes(f.frame).length).toBe(bytes(v1.client_to_server[i]?.frame ?? "").length - 12);
});

describe("HKDF-SHA256 keys", () => {
  test("the same in both versions", () => {
    const key = vector.kenc_key;
    expect(hex(deriveKey(key, Direction.clientToServer, clientRandom, serverRandom))).toBe(vector.key_c2s);
    expect(hex(deriveKey(key, Direction.serverToClient, clientRandom, serverRandom))).toBe(vector.key_s2c);
  });
});

for (const v of [v2, v1])
  describe(`version ${v.version} against the independent vector`, () => {
    const frames = v.client_to_server.map((f) => bytes(f.frame));

    test("hellos", () => {
      expect(hex(makeHello(clientRandom, v.version))).toBe(v.client_hello);
      expect(hex(makeHello(serverRandom, v.version))).toBe(v.server_hello);
      const read = readHello(bytes(v.client_hello));
      expect(read?.version).toBe(v.version);
      expect(hex(read?.random ?? new Uint8Array(0))).toBe(hex(clientRandom));
    });

    test("frames seal to the vector's bytes in both directions", () => {
      const up = new FrameSealer(c2s, Direction.clientToServer, v.version);
      for (const f of v.client_to_server) expect(hex(up.seal(Buffer.from(f.plain)))).toBe(f.frame);
      const down = new FrameSealer(s2c, Direction.serverToClient, v.version);
      for (const f of v.server_to_client) expect(hex(down.seal(Buffer.from(f.plain)))).toBe(f.frame);
    });

    test("the vector's frames open, whole or a byte at a time", () => {
      const whole = new FrameOpener(c2s, Direction.clientToServer, v.version);
      const all = Buffer.concat(frames);
      expect(text(whole.push(all))).toBe(v.client_to_server.map((f) => f.plain).join(""));
      const trickle = new FrameOpener(c2s, Direction.clientToServer, v.version);
      const out: Uint8Array[] = [];
      for (const b of all) out.push(...trickle.push(Uint8Array.of(b)));
      expect(text(out)).toBe(v.client_to_server.map((f) => f.plain).join(""));
      expect(trickle.buffered).toBe(0);
    });

    test("the WebCrypto client of the end-to-end tests makes the same keys and frames", async () => {
      const k = await webDeriveKey(vector.kenc_key, "c2s", clientRandom, serverRandom);
      expect(hex(k.raw)).toBe(vector.key_c2s);
      for (const [i, f] of v.client_to_server.entries())
        expect(hex(await webSeal(k.key, 1, i, new TextEncoder().encode(f.plain), v.version))).toBe(f.frame);
    });
  });

describe("KENC codec refusals", () => {
  const refused = (stream: Uint8Array, version: number, key = c2s) => {
    const o = new FrameOpener(key, Direction.clientToServer, version);
    try {
      o.push(stream);
      return null;
    } catch (e) {
      if (!(e instanceof KencError)) throw e;
      return e.message;
    }
  };
  const framesOf = (v: typeof v2) =>
    v.client_to_server.map((f) => bytes(f.frame)) as [Uint8Array, Uint8Array];
  const reflected = (v: typeof v2) => bytes(v.server_to_client[0]?.frame ?? "");

  for (const v of [v2, v1]) {
    const [f0, f1] = framesOf(v);
    test(`version ${v.version}: wrong key`, () => {
      expect(refused(f0, v.version, s2c)).toContain("first frame does not authenticate (wrong KENC key");
    });
    test(`version ${v.version}: truncated frame followed by the next one`, () => {
      expect(refused(Buffer.concat([f0.subarray(0, f0.length - 1), f1]), v.version)).toContain(
        "first frame does not authenticate",
      );
    });
    test(`version ${v.version}: a flipped ciphertext bit or a changed length`, () => {
      const flipped = new Uint8Array(f0);
      flipped[20] = (flipped[20] as number) ^ 1;
      expect(refused(flipped, v.version)).toContain("does not authenticate");
      const longer = Buffer.concat([f0, f1]);
      longer[1] = (longer[1] as number) + 1;
      expect(refused(longer, v.version)).toContain("does not authenticate");
    });
  }

  test("version 2: a replayed, reordered or reflected frame fails its tag (the nonce it was sealed with is not the next)", () => {
    const [f0, f1] = framesOf(v2);
    expect(refused(Buffer.concat([f0, f0]), 2)).toBe(
      "frame does not authenticate (altered, cut, replayed or out of order)",
    );
    expect(refused(Buffer.concat([f1, f0]), 2)).toContain("the first frame does not authenticate");
    expect(refused(reflected(v2), 2)).toContain("the first frame does not authenticate");
  });

  test("version 1: a replayed, reordered or reflected frame is told apart by its nonce", () => {
    const [f0, f1] = framesOf(v1);
    expect(refused(Buffer.concat([f0, f0]), 1)).toBe("frame replayed or out of order");
    expect(refused(Buffer.concat([f1, f0]), 1)).toBe("first frame out of order");
    expect(refused(reflected(v1), 1)).toBe("first frame out of order");
  });

  test("a length out of range, a hello that is not KENC, a version this end does not speak", () => {
    expect(refused(Uint8Array.of(0x40, 0x01, 0, 0), 2)).toBe("frame length out of range");
    expect(refused(Uint8Array.of(0, 0), 2)).toBe("frame length out of range");
    expect(() => readHello(new TextEncoder().encode('{"id":1'))).toThrow("not a KENC hello");
    expect(readHello(bytes(v2.client_hello).subarray(0, 10))).toBeNull();
    const v3 = bytes(v2.client_hello);
    v3[4] = 3;
    expect(() => readHello(v3)).toThrow("KENC version 3, not one this end speaks");
  });
});
