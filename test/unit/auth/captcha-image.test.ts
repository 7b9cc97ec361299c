import { describe, expect, test } from "bun:test";
import { crc32, inflateSync } from "node:zlib";
import { CAPTCHA_ALPHABET, randomCaptchaCode, renderCaptcha } from "../../../appliance/auth/captcha-image.ts";

const PREFIX = "data:image/png;base64,";

interface Decoded {
  chunks: string[];
  width: number;
  height: number;
  /** RGB, rows top to bottom */
  pixels: Uint8Array;
  /** every byte of the file but the compressed pixel stream: signature, chunk headers, IHDR, CRCs */
  outsidePixels: Buffer;
}

/** A PNG decoder written from the PNG specification for 8-bit RGB, independent of the appliance's encoder. */
function decode(dataUrl: string): Decoded {
  expect(dataUrl.startsWith(PREFIX)).toBe(true);
  const bytes = Buffer.from(dataUrl.slice(PREFIX.length), "base64");
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  const outside: Buffer[] = [bytes.subarray(0, 8)];
  let width = 0;
  let height = 0;
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    chunks.push(type);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([...data.subarray(8)]).toEqual([8, 2, 0, 0, 0]); // 8-bit RGB, deflate, no interlace
    }
    if (type === "IDAT") {
      idat.push(data);
      outside.push(bytes.subarray(at, at + 8), bytes.subarray(at + 8 + length, at + 12 + length));
    } else outside.push(bytes.subarray(at, at + 12 + length));
    at += 12 + length;
  }
  const stream = Buffer.concat(idat);
  const { buffer: raw, engine } = inflateSync(stream, { info: true }) as unknown as {
    buffer: Buffer;
    engine: { bytesWritten: number };
  };
  // the compressed stream is the pixel rows and nothing else: no bytes after its end, none left over
  expect(engine.bytesWritten).toBe(stream.length);
  const stride = width * 3;
  expect(raw.length).toBe((stride + 1) * height);
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i] ?? 0;
      const a = i >= 3 ? (pixels[y * stride + i - 3] ?? 0) : 0;
      const b = y > 0 ? (pixels[(y - 1) * stride + i] ?? 0) : 0;
      const c = i >= 3 && y > 0 ? (pixels[(y - 1) * stride + i - 3] ?? 0) : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter ?? 0] ?? 0;
      pixels[y * stride + i] = (x + predictor) & 255;
    }
  }
  return { chunks, width, height, pixels, outsidePixels: Buffer.concat(outside) };
}

const darkPixels = (d: Decoded) => {
  let n = 0;
  for (let i = 0; i < d.pixels.length; i += 3) {
    const lum = 0.3 * (d.pixels[i] ?? 0) + 0.59 * (d.pixels[i + 1] ?? 0) + 0.11 * (d.pixels[i + 2] ?? 0);
    if (lum < 100) n++;
  }
  return n;
};

describe("randomCaptchaCode", () => {
  test("has the asked length and only unambiguous characters", () => {
    expect(randomCaptchaCode()).toHaveLength(4);
    expect(randomCaptchaCode(6)).toHaveLength(6);
    for (let i = 0; i < 200; i++) {
      for (const ch of randomCaptchaCode()) expect(CAPTCHA_ALPHABET).toContain(ch);
    }
    for (const ambiguous of "0O1IlQ8B5S2Z") expect(CAPTCHA_ALPHABET).not.toContain(ambiguous);
  });

  test("uses the whole alphabet and repeats rarely", () => {
    const codes = Array.from({ length: 500 }, () => randomCaptchaCode());
    expect(new Set(codes.join("")).size).toBe(CAPTCHA_ALPHABET.length);
    // 24^4 = 331,776 codes: 500 draws with more than a handful of repeats means a broken generator
    expect(new Set(codes).size).toBeGreaterThan(490);
  });
});

describe("renderCaptcha", () => {
  test("is a PNG data URL of 240 × 80 RGB pixels with only the image chunks", () => {
    const png = decode(renderCaptcha("AC34"));
    expect([png.width, png.height]).toEqual([240, 80]);
    expect(png.chunks[0]).toBe("IHDR");
    expect(png.chunks.at(-1)).toBe("IEND");
    expect(new Set(png.chunks)).toEqual(new Set(["IHDR", "IDAT", "IEND"]));
  });

  test("the code is nowhere in the file: there is no text to read, only pixels", () => {
    for (let i = 0; i < 100; i++) {
      const code = randomCaptchaCode();
      const png = decode(renderCaptcha(code));
      // a text chunk (tEXt, zTXt, iTXt) or any other metadata would be a place to hide the answer
      expect(new Set(png.chunks)).toEqual(new Set(["IHDR", "IDAT", "IEND"]));
      // The decoder has checked that the compressed stream holds exactly the pixel rows, so the
      // code could only hide in the rest of the file. Neither the decoded pixels nor the compressed
      // bytes are searched: grey ink takes the byte values of the code's letters (0x33–0x79), so a run
      // of pixels spelled a code by chance 1 run in 4, and the compressed stream (tens of KB of
      // near-random bytes) holds a given 4-byte string now and then (1 CI run in some hundreds).
      for (const form of [code, code.toLowerCase()])
        expect(png.outsidePixels.includes(form, 0, "latin1")).toBe(false);
    }
  });

  test("two images of the same code differ in their pixels", () => {
    const a = decode(renderCaptcha("XY79")).pixels;
    const b = decode(renderCaptcha("XY79")).pixels;
    let differing = 0;
    for (let i = 0; i < a.length; i += 3)
      if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) differing++;
    expect(differing).toBeGreaterThan((a.length / 3) * 0.2);
  });

  test("the characters are drawn in dark ink on a light ground: more strokes, more ink", () => {
    const ink = (code: string) => {
      let sum = 0;
      // 40 images each: over 10, the noise strokes made W's ink ratio to I's fall to 1.22 (1 run in 30)
      for (let i = 0; i < 40; i++) sum += darkPixels(decode(renderCaptcha(code)));
      return sum / 40;
    };
    // a light ground: most pixels are not ink
    expect(ink("LLLL")).toBeLessThan(240 * 80 * 0.3);
    // W is five long strokes, I three short ones: the difference is the letters, not the noise
    expect(ink("WWWW")).toBeGreaterThan(ink("IIII") * 1.3);
  });

  test("draws any A–Z / 0–9 code, such as the fixed code of --test-captcha", () => {
    for (const code of ["1234", "0O8B", "5SZ2", "IGQ1", "abcd", CAPTCHA_ALPHABET]) {
      expect(darkPixels(decode(renderCaptcha(code)))).toBeGreaterThan(200);
    }
  });

  test("refuses characters it cannot draw", () => {
    expect(() => renderCaptcha("A-")).toThrow();
    expect(() => renderCaptcha("é")).toThrow();
    expect(() => renderCaptcha("A B")).toThrow();
  });
});
