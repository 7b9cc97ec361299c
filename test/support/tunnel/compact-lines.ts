/**
 * The receiving side of RMS3's compact lines, written from docs/rms-tunnel.md ("Compact lines") with a
 * scanner of its own and BigInt arithmetic, nothing of the appliance: the tests' reader rebuilds the
 * lines that `line` and `fields` frames carry with it.
 */

interface Shape {
  literals: string[];
  /** 0 number, 1–12 short hex of that many digits, 13 long hex */
  kinds: number[];
  values: (bigint | string)[];
}

const LONG = 13;
const hexDigit = (c: string | undefined) => c !== undefined && /^[0-9a-f]$/.test(c);
const digit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** The document's cut, byte by byte. */
function cutLine(line: string): Shape {
  const shape: Shape = { literals: [], kinds: [], values: [] };
  let text = "";
  let i = 0;
  const field = (kind: number, value: bigint | string, resume: number) => {
    shape.literals.push(text);
    shape.kinds.push(kind);
    shape.values.push(value);
    text = "";
    i = resume;
  };
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (hexDigit(line[j])) j++;
      if (j > i + 1 && line[j] === '"') {
        const digits = line.slice(i + 1, j);
        text += '"';
        field(
          digits.length <= 12 ? digits.length : LONG,
          digits.length <= 12 ? BigInt(`0x${digits}`) : digits,
          j + 1,
        );
        // the closing quote is the next literal's first byte, and the scan goes on after it
        text = '"';
        continue;
      }
    }
    if (c === ":" || c === "," || c === "[") {
      let j = i + 1;
      while (line[j] === " ") j++;
      const start = j;
      if (line[j] === "-") j++;
      let n = 0;
      if (line[j] === "0") {
        j++;
        n = 1;
      } else if (digit(line[j])) for (; digit(line[j]) && n < 15; n++) j++;
      if (n > 0 && [" ", ",", "]", "}"].includes(line[j] as string)) {
        text += line.slice(i, start);
        field(0, BigInt(line.slice(start, j)), j);
        continue;
      }
    }
    text += c;
    i++;
  }
  shape.literals.push(text);
  return shape;
}

function write(s: Shape): string {
  let out = s.literals[0] as string;
  s.kinds.forEach((kind, k) => {
    const v = s.values[k] as bigint | string;
    const f =
      kind === 0
        ? v.toString()
        : kind === LONG
          ? (v as string)
          : (v as bigint).toString(16).padStart(kind, "0");
    out += f + (s.literals[k + 1] as string);
  });
  return out;
}

/** One direction's templates of every stream, as its `line` and `fields` frames make them. */
export class TemplateReader {
  private readonly slots = new Map<string, Shape>();

  line(stream: number, slot: number, bytes: Uint8Array): string {
    const line = Buffer.from(bytes).toString("latin1");
    const shape = cutLine(line);
    if (write(shape) !== line) throw new Error(`stream ${stream}: a template line its cut does not rebuild`);
    this.slots.set(`${stream}/${slot}`, shape);
    return line;
  }

  fields(stream: number, slot: number, body: Uint8Array): string {
    const was = this.slots.get(`${stream}/${slot}`);
    if (was === undefined) throw new Error(`stream ${stream}: fields for empty slot ${slot}`);
    let at = 0;
    const varint = () => {
      let n = 0n;
      let shift = 0n;
      for (;;) {
        const b = body[at++];
        if (b === undefined) throw new Error("fields cut short");
        n |= BigInt(b & 0x7f) << shift;
        if (b < 0x80) return n;
        shift += 7n;
      }
    };
    const values = was.kinds.map((kind, k) => {
      const old = was.values[k] as bigint | string;
      if (kind === LONG) {
        const n = Number(varint());
        if (n === 0) return old;
        const packed = Math.ceil((n - 1) / 2);
        const hex = Buffer.from(body.subarray(at, at + packed)).toString("hex");
        at += packed;
        return hex.slice(hex.length - (n - 1));
      }
      const z = varint();
      return (old as bigint) + (z % 2n === 0n ? z / 2n : -(z + 1n) / 2n);
    });
    if (at !== body.length) throw new Error("fields past the template's");
    const shape = { ...was, values };
    this.slots.set(`${stream}/${slot}`, shape);
    return write(shape);
  }
}
