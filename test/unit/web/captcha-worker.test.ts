/**
 * Captcha images come from a worker thread kept running (ResidentWorker): many at once are all
 * drawn and answered in order, a queue past its bound is refused at once, and a job the worker
 * cannot do fails alone without taking the next ones with it.
 */
import { describe, expect, test } from "bun:test";
import { CAPTCHA_WORKER, ResidentWorker, WorkerBusy } from "../../../appliance/workers.ts";

const PNG_URL = "data:image/png;base64,";
const decodedPng = (url: string) => Buffer.from(url.slice(PNG_URL.length), "base64");

describe("captcha images from a resident worker", () => {
  test("ten images asked at once are ten PNGs, each answered to its own request", async () => {
    const images = new ResidentWorker<string, string>(CAPTCHA_WORKER, 64);
    const codes = ["ACDE", "FHJK", "LMNP", "RTUV", "WXY3", "4679", "ACDF", "HJKL", "MNPR", "TUVW"];
    const urls = await Promise.all(codes.map((c) => images.run(c)));
    for (const url of urls) {
      expect(url.startsWith(PNG_URL)).toBe(true);
      expect([...decodedPng(url).subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
    }
    // distinct images (random noise and glyph jitter), none lost or answered twice
    expect(new Set(urls).size).toBe(codes.length);
  });

  test("past its bound the queue refuses at once with WorkerBusy; the jobs already queued are drawn", async () => {
    const images = new ResidentWorker<string, string>(CAPTCHA_WORKER, 3);
    const queued = [images.run("ACDE"), images.run("FHJK"), images.run("LMNP")];
    expect(images.full).toBe(true);
    await expect(images.run("RTUV")).rejects.toBeInstanceOf(WorkerBusy);
    for (const url of await Promise.all(queued)) expect(url.startsWith(PNG_URL)).toBe(true);
    expect(images.full).toBe(false);
    expect((await images.run("WXY3")).startsWith(PNG_URL)).toBe(true);
  });

  test("a code it cannot draw fails that request only", async () => {
    const images = new ResidentWorker<string, string>(CAPTCHA_WORKER, 8);
    const [bad, good] = await Promise.allSettled([images.run("A-"), images.run("ACDE")]);
    expect(bad.status).toBe("rejected");
    expect(good.status === "fulfilled" && good.value.startsWith(PNG_URL)).toBe(true);
  });
});
