/**
 * A reader of recorded RMS tunnel traffic, written from docs/rms-tunnel.md with WebCrypto and the
 * runtime's decompressors, nothing of the appliance: what a test asserts about the wire comes from
 * this reading, not from the engine's own decoder.
 */
import { inflateRawSync, zstdDecompressSync } from "node:zlib";
import { concat, frameHeader, webDeriveKey } from "../kenc/web-kenc.ts";
import { TemplateReader } from "./compact-lines.ts";

const HELLO = 37;
const SALT = new TextEncoder().encode("pithead-rms-v1");

export interface WireFrame {
  type: number;
  /** stream ids the frame names (one, or a broadcast's list) */
  streams: number[];
  /** DATA and BROADCAST payload; the line a LINE or FIELDS frame stands for */
  payload: string;
  /** the record's size on the wire (header included), for the first frame of each record; else 0 */
  recordBytes: number;
  /** a `batch` frame's window, in ms */
  batchMs?: number;
  /** a `welcome` frame's tunnel id, hex */
  tunnel?: string;
}

type Way = "up" | "down";

/** One direction's plaintext of one recorded connection, KENC frame by frame. */
async function open(kencKey: string, up: Uint8Array[], down: Uint8Array[], way: Way): Promise<Uint8Array> {
  const u = concat(...up);
  const d = way === "down" ? concat(...down) : u;
  const key = await webDeriveKey(
    kencKey,
    way === "down" ? "s2c" : "c2s",
    u.slice(5, HELLO),
    concat(...down).slice(5, HELLO),
    SALT,
  );
  // the port answers in the client's KENC version: the fifth byte of each end's hello
  const header = frameHeader(d[4] as number);
  const plain: Uint8Array[] = [];
  let at = HELLO;
  for (let counter = 0n; at + 2 <= d.length; counter++) {
    const length = ((d[at] as number) << 8) | (d[at + 1] as number);
    const end = at + header + length + 16;
    if (end > d.length) break;
    const nonce = new Uint8Array(12);
    new DataView(nonce.buffer).setUint32(0, way === "down" ? 2 : 1);
    new DataView(nonce.buffer).setBigUint64(4, counter);
    if (header > 2 && d.slice(at + 2, at + header).some((b, i) => b !== nonce[i]))
      throw new Error(`${way} frame out of order`);
    const opened = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: nonce, additionalData: d.slice(at, at + 2), tagLength: 128 },
      key.key,
      d.slice(at + header, end),
    );
    plain.push(new Uint8Array(opened));
    at = end;
  }
  return concat(...plain);
}

function framesOf(body: Uint8Array, recordBytes: number, templates: TemplateReader): WireFrame[] {
  const v = new DataView(body.buffer, body.byteOffset, body.length);
  const text = (from: number, n: number) => new TextDecoder().decode(body.subarray(from, from + n));
  const out: WireFrame[] = [];
  let at = 0;
  while (at < body.length) {
    const type = body[at] as number;
    const f: WireFrame = { type, streams: [], payload: "", recordBytes: out.length === 0 ? recordBytes : 0 };
    if (type === 0x01) {
      f.streams.push(v.getUint32(at + 1));
      at += 6 + (body[at + 5] as number);
    } else if (type === 0x02) {
      f.streams.push(v.getUint32(at + 1));
      const n = v.getUint32(at + 5);
      f.payload = text(at + 9, n);
      at += 9 + n;
    } else if (type === 0x03) {
      f.streams.push(v.getUint32(at + 1));
      at += 5;
    } else if (type === 0x04) {
      f.streams.push(v.getUint32(at + 1));
      at += 9;
    } else if (type === 0x05) {
      const count = v.getUint16(at + 1);
      for (let i = 0; i < count; i++) f.streams.push(v.getUint32(at + 3 + 4 * i));
      const head = at + 3 + 4 * count;
      const n = v.getUint32(head);
      f.payload = text(head + 4, n);
      at = head + 4 + n;
    } else if (type === 0x06) {
      const stream = v.getUint32(at + 1);
      const n = v.getUint16(at + 6);
      f.streams.push(stream);
      f.payload = templates.line(stream, body[at + 5] as number, body.subarray(at + 8, at + 8 + n));
      at += 8 + n;
    } else if (type === 0x07) {
      const stream = v.getUint32(at + 1);
      const n = body[at + 6] as number;
      f.streams.push(stream);
      f.payload = templates.fields(stream, body[at + 5] as number, body.subarray(at + 7, at + 7 + n));
      at += 7 + n;
    } else if (type === 0x10) at += 9;
    else if (type === 0x11) at += 1;
    else if (type === 0x21) {
      f.tunnel = Buffer.from(body.subarray(at + 1, at + 17)).toString("hex");
      at += 1 + 16 + 1 + 8 + 4;
    } else if (type === 0x23) {
      // settings: name, announcement, other (each a u16-length text), then count u16 × port
      at += 1;
      for (let i = 0; i < 3; i++) at += 2 + v.getUint16(at);
      const count = v.getUint16(at);
      at += 2;
      for (let i = 0; i < count; i++) at += 5 + 2 + v.getUint16(at + 5);
    } else if (type === 0x20) at += 1 + 1 + 1 + 16 + 8 + 4;
    else if (type === 0x22) {
      at += 2 + (body[at + 1] as number);
      at += 2 + v.getUint16(at);
    } else if (type === 0x25) {
      f.batchMs = v.getUint16(at + 1);
      at += 3;
    } else if (type === 0x24) {
      f.payload = text(at + 3, v.getUint16(at + 1));
      at += 3 + v.getUint16(at + 1);
    } else throw new Error(`unknown frame type ${type}`);
    out.push(f);
  }
  return out;
}

export interface WireRecord {
  /** 0 plain, 1 raw deflate, 2 zstd */
  kind: number;
  /** its size on the wire, header included */
  bytes: number;
  frames: WireFrame[];
}

/** Every record one end sent on one recorded connection (`down`: the server's), decompressed. */
export async function readRecords(
  kencKey: string,
  up: Uint8Array[],
  down: Uint8Array[],
  way: Way,
): Promise<WireRecord[]> {
  const plain = await open(kencKey, up, down, way);
  const v = new DataView(plain.buffer, plain.byteOffset, plain.length);
  const out: WireRecord[] = [];
  // a compressed record's dictionary: the last 32 KiB of the bodies before it on this link
  let history = new Uint8Array(0);
  const templates = new TemplateReader();
  let at = 0;
  while (at + 5 <= plain.length) {
    const kind = plain[at] as number;
    const length = v.getUint32(at + 1);
    if (at + 5 + length > plain.length) break;
    const raw = plain.subarray(at + 5, at + 5 + length);
    const dictionary = { dictionary: history };
    const body =
      kind === 0
        ? raw
        : new Uint8Array(kind === 1 ? inflateRawSync(raw, dictionary) : zstdDecompressSync(raw, dictionary));
    history = concat(history, body).slice(-32 * 1024);
    out.push({ kind, bytes: 5 + length, frames: framesOf(body, 5 + length, templates) });
    at += 5 + length;
  }
  return out;
}

/** Every frame the server sent on one recorded connection, records decompressed. */
export async function readDownFrames(
  kencKey: string,
  up: Uint8Array[],
  down: Uint8Array[],
): Promise<WireFrame[]> {
  return (await readDownRecords(kencKey, up, down)).flatMap((r) => r.frames);
}

/** Every record the server sent on one recorded connection, decompressed. */
export const readDownRecords = (kencKey: string, up: Uint8Array[], down: Uint8Array[]) =>
  readRecords(kencKey, up, down, "down");
