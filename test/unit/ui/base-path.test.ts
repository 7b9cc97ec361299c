import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// index.html sets <base href> before the app loads, so a secure route (/Farm/...) serves assets and API under it.
const html = readFileSync(join(import.meta.dir, "../../../ui/index.html"), "utf8");
const src = /m=location\.pathname\.match\((\/.*?\/)\);base\.href=(.*?);document/.exec(html);

function base(pathname: string): string {
  if (!src) throw new Error("base script not found in ui/index.html");
  const re = new Function(`return ${src[1]}`)() as RegExp;
  const m = pathname.match(re);
  return m ? (m[1] as string) : pathname.replace(/[^/]*$/, "");
}

describe("base href from the location", () => {
  test("no secure route", () => {
    expect(base("/")).toBe("/");
    expect(base("/login")).toBe("/");
    expect(base("/system/pool")).toBe("/");
    expect(base("/system/index/portinside")).toBe("/");
  });
  test("under a secure route", () => {
    expect(base("/Farm/")).toBe("/Farm/");
    expect(base("/Farm/login")).toBe("/Farm/");
    expect(base("/Farm/system/index/chartcard")).toBe("/Farm/");
  });
});
