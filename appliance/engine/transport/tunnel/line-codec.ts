/**
 * Compact lines (RMS3 from tunnel version 4, docs/rms-tunnel.md "Compact lines"). A miner's stream
 * repeats the same few line shapes — its shares, their answers — with only some numbers and hex
 * strings changing. A line is cut into what stays (the literals between its fields) and what varies:
 *
 *   number field:     an integer after `:`, `,` or `[` (up to 15 digits; its sign and digits)
 *   short hex field:  a quoted string of 1–12 lowercase hex digits (a job id, extranonce2, ntime, nonce)
 *   long hex field:   a quoted string of more lowercase hex digits (a hash, a coinbase part)
 *
 * A line whose cut has the same literals and field kinds as one of the stream's templates crosses
 * as its fields alone, each against the template's value (the line then replaces the template):
 *
 *   number or short hex: zigzag varint of (value − template's value)
 *   long hex:            varint 0 if unchanged; else varint (digits + 1) ‖ the digits packed two a byte
 *
 * Only a line that its cut rebuilds byte for byte becomes a template or crosses as fields: anything
 * else (leading zeros, `-0`, a line cut mid-way) crosses as plain data, so the codec never changes
 * what a miner or a pool sent.
 */
import { MAX_TEMPLATE_LINE, TEMPLATE_SLOTS, TunnelError } from "./frames.ts";

/** a fields body is one frame byte long at most; a longer one crosses as the line */
const MAX_FIELDS_BODY = 255;

const NUMBER = 0;
/** kinds 1..SHORT_HEX_MAX: a short hex field of that many digits */
const SHORT_HEX_MAX = 12;
const LONG_HEX = SHORT_HEX_MAX + 1;
/** the largest magnitude a number field holds exactly (15 digits) */
const MAX_NUMBER = 999_999_999_999_999;

const FIELD = /"([0-9a-f]+)"|([:,[] *)(-?(?:0|[1-9][0-9]{0,14}))(?=[ ,\]}])/g;

/**
 * A template as a stream keeps it: its shape and its fields' values. The shape is one string, the
 * literals and then the kinds, NUL-separated (a template has no NUL), so a template costs that string
 * and its values; literals and kinds are read back from it when a line is rebuilt.
 */
interface Template {
  shape: string;
  values: (number | string)[];
}

/** A line cut into literals and fields: literals.length === values.length + 1. */
interface Cut extends Template {
  literals: string[];
  kinds: number[];
}

/**
 * Shapes seen lately, each kept once: every stream's answers and difficulty lines have the same
 * shapes, and a template then holds a shared string. Bounded, since a peer chooses its lines.
 */
const shapes = new Map<string, string>();
const MAX_SHAPES = 4096;

function shared(shape: string): string {
  const known = shapes.get(shape);
  if (known !== undefined) return known;
  if (shapes.size >= MAX_SHAPES) shapes.clear();
  shapes.set(shape, shape);
  return shape;
}

/** A line (latin1) cut into literals and fields. */
function cut(line: string): Cut {
  const literals: string[] = [];
  const kinds: number[] = [];
  const values: (number | string)[] = [];
  let from = 0;
  for (const m of line.matchAll(FIELD)) {
    const at = m.index;
    if (m[1] !== undefined) {
      const hex = m[1];
      literals.push(line.slice(from, at + 1));
      from = at + 1 + hex.length;
      if (hex.length <= SHORT_HEX_MAX) {
        kinds.push(hex.length);
        values.push(Number.parseInt(hex, 16));
      } else {
        kinds.push(LONG_HEX);
        values.push(hex);
      }
    } else {
      const prefix = m[2] as string;
      const digits = m[3] as string;
      literals.push(line.slice(from, at + prefix.length));
      from = at + prefix.length + digits.length;
      kinds.push(NUMBER);
      values.push(Number(digits));
    }
  }
  literals.push(line.slice(from));
  return { shape: `${literals.join("\0")}\0${kinds.join(",")}`, literals, kinds, values };
}

/** A shape's literals and kinds. */
function readShape(shape: string): { literals: string[]; kinds: number[] } {
  const literals = shape.split("\0");
  const kinds = literals.pop() as string;
  return { literals, kinds: kinds === "" ? [] : kinds.split(",").map(Number) };
}

const render = (kind: number, value: number | string): string =>
  kind === NUMBER
    ? String(value)
    : kind === LONG_HEX
      ? (value as string)
      : value.toString(16).padStart(kind, "0");

/** The line of `literals` around `values`. */
function rebuild(literals: string[], kinds: number[], values: (number | string)[]): string {
  let s = literals[0] as string;
  for (let i = 0; i < kinds.length; i++)
    s += render(kinds[i] as number, values[i] as number | string) + (literals[i + 1] as string);
  return s;
}

/** The cut of a line that may be a template: short enough, and rebuilt byte for byte. */
function templateCut(line: string): Cut | null {
  if (line.length > MAX_TEMPLATE_LINE || !line.endsWith("\n") || line.includes("\0")) return null;
  const c = cut(line);
  return rebuild(c.literals, c.kinds, c.values) === line ? c : null;
}

class Bytes {
  readonly out: number[] = [];
  varint(n: number): void {
    while (n >= 0x80) {
      this.out.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.out.push(n);
  }
  signed(d: number): void {
    this.varint(d >= 0 ? d * 2 : -d * 2 - 1);
  }
}

/** `line`'s fields against `template` (same shape); null when they would not fit a fields body. */
function encodeFields(template: Template, line: Cut): Uint8Array | null {
  const b = new Bytes();
  for (let i = 0; i < line.kinds.length; i++) {
    const kind = line.kinds[i] as number;
    const value = line.values[i] as number | string;
    const was = template.values[i] as number | string;
    if (kind !== LONG_HEX) b.signed((value as number) - (was as number));
    else if (value === was) b.varint(0);
    else {
      const hex = value as string;
      b.varint(hex.length + 1);
      const even = hex.length % 2 === 0 ? hex : `0${hex}`;
      for (let k = 0; k < even.length; k += 2) b.out.push(Number.parseInt(even.slice(k, k + 2), 16));
    }
    if (b.out.length > MAX_FIELDS_BODY) return null;
  }
  return Uint8Array.from(b.out);
}

/** The values that `body` (a peer's fields frame) gives `template`'s kinds; a malformed body breaks the tunnel. */
function decodeFields(template: Template, kinds: number[], body: Uint8Array): (number | string)[] {
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (at >= body.length) throw new TunnelError("fields cut short");
      const byte = body[at++] as number;
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new TunnelError("a field's varint is too long");
    }
  };
  const values: (number | string)[] = [];
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i] as number;
    const was = template.values[i] as number | string;
    if (kind === LONG_HEX) {
      const n = varint();
      if (n === 0) {
        values.push(was);
        continue;
      }
      const digits = n - 1;
      const packed = Math.ceil(digits / 2);
      if (digits <= SHORT_HEX_MAX || at + packed > body.length)
        throw new TunnelError("a long field out of shape");
      const hex = Buffer.from(body.subarray(at, at + packed)).toString("hex");
      at += packed;
      values.push(digits % 2 === 1 ? hex.slice(1) : hex);
      continue;
    }
    const z = varint();
    const value = (was as number) + (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
    const limit = kind === NUMBER ? MAX_NUMBER : 16 ** kind - 1;
    if (value > limit || value < (kind === NUMBER ? -MAX_NUMBER : 0))
      throw new TunnelError("a field out of its range");
    values.push(value);
  }
  if (at !== body.length) throw new TunnelError("fields past the template's");
  return values;
}

/** What one line becomes on the wire. */
export type CompactLine =
  /** a new template in `slot`, sent whole */
  | { slot: number; line: Uint8Array; fields?: undefined }
  /** the template in `slot`'s fields changed to these */
  | { slot: number; fields: Uint8Array; line?: undefined };

/** A stream's templates, each way. */
export interface StreamLines {
  out: LineEncoder;
  in: LineDecoder;
}

/** The sending side of one stream's direction: its templates, and whether its bytes stopped mid-line. */
export class LineEncoder {
  private readonly slots: (Template | null)[] = new Array(TEMPLATE_SLOTS).fill(null);
  private nextSlot = 0;
  /** the last bytes sent ended inside a line: the next line's start has already crossed */
  private midLine = false;

  /**
   * This stream's bytes of one record, as plain runs (Uint8Array) and compact lines, in order: every
   * complete line that can be a template becomes one, the rest stays plain.
   */
  encode(bytes: Uint8Array): (Uint8Array | CompactLine)[] {
    const out: (Uint8Array | CompactLine)[] = [];
    let plainFrom = 0;
    let from = 0;
    while (from < bytes.length) {
      const nl = bytes.indexOf(0x0a, from);
      if (nl < 0) break;
      const whole = !this.midLine;
      this.midLine = false;
      const end = nl + 1;
      const compact = whole ? this.line(bytes.subarray(from, end)) : null;
      if (compact !== null) {
        if (plainFrom < from) out.push(bytes.subarray(plainFrom, from));
        out.push(compact);
        plainFrom = end;
      }
      from = end;
    }
    if (plainFrom < bytes.length) out.push(bytes.subarray(plainFrom));
    if (from < bytes.length) this.midLine = true;
    return out;
  }

  /** Bytes of the stream that crossed otherwise (a broadcast job). */
  passed(bytes: Uint8Array): void {
    if (bytes.length > 0) this.midLine = bytes[bytes.length - 1] !== 0x0a;
  }

  private line(bytes: Uint8Array): CompactLine | null {
    if (bytes.length > MAX_TEMPLATE_LINE) return null;
    const c = templateCut(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1"));
    if (c === null) return null;
    const slot = this.slots.findIndex((t) => t !== null && t.shape === c.shape);
    if (slot >= 0) {
      const template = this.slots[slot] as Template;
      const fields = encodeFields(template, c);
      // the kept shape string serves on: the new cut's copy is dropped
      this.slots[slot] = { shape: template.shape, values: c.values };
      if (fields !== null) return { slot, fields };
      return { slot, line: new Uint8Array(bytes) };
    }
    const free = this.nextSlot;
    this.nextSlot = (this.nextSlot + 1) % TEMPLATE_SLOTS;
    this.slots[free] = { shape: shared(c.shape), values: c.values };
    return { slot: free, line: new Uint8Array(bytes) };
  }
}

/** The receiving side of one stream's direction: the templates the peer's lines made. */
export class LineDecoder {
  private readonly slots: (Template | null)[] = new Array(TEMPLATE_SLOTS).fill(null);

  /** a whole line the peer sent: the template of `slot` */
  line(slot: number, bytes: Uint8Array): void {
    const line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
    const c = templateCut(line);
    if (c === null) throw new TunnelError("a template line that is not one");
    this.slots[slot] = { shape: shared(c.shape), values: c.values };
  }

  /** the line that the peer's fields make of `slot`'s template, which it becomes */
  fields(slot: number, body: Uint8Array): Uint8Array {
    const template = this.slots[slot];
    if (template === null || template === undefined)
      throw new TunnelError(`fields for empty template ${slot}`);
    const { literals, kinds } = readShape(template.shape);
    const values = decodeFields(template, kinds, body);
    this.slots[slot] = { shape: template.shape, values };
    return Buffer.from(rebuild(literals, kinds, values), "latin1");
  }
}
