/**
 * Tunnel records and frames written by hand from docs/rms-tunnel.md, for tests that play a client
 * the engine's encoders would not make: hostile ones, and ones of an earlier version.
 */

/** kind ‖ length ‖ body; `length` may lie */
export function record(kind: number, body: Uint8Array, length = body.length): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = kind;
  new DataView(out.buffer).setUint32(1, length);
  out.set(body, 5);
  return out;
}

/** an RMS3 hello with a 64 KiB window, of tunnel version `version`: a new tunnel, or a resume of `tunnel` */
export function hello(version: number, tunnel: Uint8Array = new Uint8Array(16)): Uint8Array {
  const f = new Uint8Array(3 + 16 + 12);
  f[0] = 0x20;
  f[1] = version;
  f[2] = 6;
  f.set(tunnel, 3);
  new DataView(f.buffer).setUint32(3 + 16 + 8, 65536);
  return f;
}

export function dataFrame(stream: number, text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  const f = new Uint8Array(9 + payload.length);
  f[0] = 0x02;
  new DataView(f.buffer).setUint32(1, stream);
  new DataView(f.buffer).setUint32(5, payload.length);
  f.set(payload, 9);
  return f;
}

/** open stream 1 from 127.0.0.9 */
export function openFrame(): Uint8Array {
  const address = new TextEncoder().encode("127.0.0.9");
  const f = new Uint8Array(6 + address.length);
  f[0] = 0x01;
  new DataView(f.buffer).setUint32(1, 1);
  f[5] = address.length;
  f.set(address, 6);
  return f;
}

/** a `fields` frame: `body` against the template in `slot` of `stream` */
export function fieldsFrame(stream: number, slot: number, body: Uint8Array): Uint8Array {
  const f = new Uint8Array(7 + body.length);
  f[0] = 0x07;
  new DataView(f.buffer).setUint32(1, stream);
  f[5] = slot;
  f[6] = body.length;
  f.set(body, 7);
  return f;
}
