import { describe, expect, test } from "bun:test";
import { CAPTCHA_ALPHABET, randomCaptchaCode, renderCaptcha } from "../../../appliance/auth/captcha-image.ts";

const PREFIX = "data:image/svg+xml;base64,";

function markup(dataUrl: string): string {
  return Buffer.from(dataUrl.slice(PREFIX.length), "base64").toString("utf8");
}

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
  test("is a base64 SVG data URL of well-formed SVG", () => {
    const url = renderCaptcha("AC34");
    expect(url.startsWith(PREFIX)).toBe(true);
    expect(url.slice(PREFIX.length)).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const svg = markup(url);
    expect(svg).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toEndWith("</svg>");
    expect(svg.match(/<path /g)?.length).toBeGreaterThan(4);
  });

  test("never contains the code as text, for every character of the alphabet", () => {
    for (let i = 0; i < 300; i++) {
      const code = randomCaptchaCode();
      const svg = markup(renderCaptcha(code));
      expect(svg).not.toContain("<text");
      expect(svg).not.toContain(code);
      expect(svg.toUpperCase()).not.toContain(code);
    }
  });

  test("draws one path group per character: more characters, more paths", () => {
    const count = (code: string) => markup(renderCaptcha(code)).match(/<path /g)?.length ?? 0;
    // H has three strokes, L one; noise and decoys are a fixed number of paths
    expect(count("HHHH") - count("LLLL")).toBe(8);
  });

  test("differs on every call, even for the same code", () => {
    const images = new Set(Array.from({ length: 20 }, () => renderCaptcha("XY79")));
    expect(images.size).toBe(20);
  });

  test("can draw every character of the alphabet", () => {
    expect(markup(renderCaptcha(CAPTCHA_ALPHABET)).match(/<path /g)?.length).toBeGreaterThan(
      CAPTCHA_ALPHABET.length,
    );
  });

  test("draws any A–Z / 0–9 code, such as the fixed code of --test-captcha", () => {
    for (const code of ["1234", "0O8B", "5SZ2", "IGQ1", "abcd"]) {
      const svg = markup(renderCaptcha(code));
      expect(svg.match(/<path /g)?.length).toBeGreaterThan(4 + 4 + 3);
      expect(svg).not.toContain(code.toUpperCase());
    }
  });

  test("refuses characters it cannot draw", () => {
    expect(() => renderCaptcha("A-")).toThrow();
    expect(() => renderCaptcha("é")).toThrow();
    expect(() => renderCaptcha("A B")).toThrow();
  });
});
