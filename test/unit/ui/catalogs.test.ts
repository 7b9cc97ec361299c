import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "../../..");
const load = (l: string) =>
  JSON.parse(readFileSync(join(root, "locales", `${l}.json`), "utf8")) as Record<string, string>;
const en = load("en");
const others = { "zh-CN": load("zh-CN"), ru: load("ru") };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}
const source = files(join(root, "ui/src"))
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("catalogs: en, zh-CN, ru all complete", () => {
  test('every literal t("key") of the console is in English', () => {
    const used = [...source.matchAll(/\bt\("([^"]+)"/g)].map((m) => m[1] as string);
    expect(used.filter((k) => !(k in en))).toEqual([]);
  });
  test("dynamic key families exist", () => {
    const fam = [
      "state.active",
      "state.closed",
      "state.queuing",
      "ping.wait",
      "ping.ping",
      "ping.ok",
      "ping.error",
      "editor.title_add",
      "editor.title_edit",
      "editor.title_clone",
      "batch.confirm_stop",
      "batch.confirm_delete",
      "mode.efficient_hint",
      "mode.compatible_hint",
      "mode.pool_hint",
      "inside.upstream_main",
      "inside.upstream_standby",
      "ban.input_ip",
      "ban.input_wallet",
      "logs.running",
      "logs.error",
      "logs.update",
      "logs.request",
      "logs.audit",
    ];
    expect(fam.filter((k) => !(k in en))).toEqual([]);
    const sections = [...source.matchAll(/\["(\w+)", \w+Section\]|\["(about)", About\]/g)].map(
      (m) => `settings.${m[1] ?? m[2]}`,
    );
    expect(sections.length).toBeGreaterThan(10);
    expect(sections.filter((k) => !(k in en))).toEqual([]);
  });
  test("every server message key is translated", () => {
    const server = readFileSync(join(root, "appliance/web/messages.ts"), "utf8");
    const keys = [...server.matchAll(/"(lang\.[a-z0-9_.]+)":/g)].map((m) => m[1] as string);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => !(k in en))).toEqual([]);
  });
  for (const [lang, cat] of Object.entries(others)) {
    test(`${lang} has exactly the English keys, none empty, same placeholders`, () => {
      expect(Object.keys(cat).sort()).toEqual(Object.keys(en).sort());
      expect(Object.entries(cat).filter(([, v]) => v.trim() === "")).toEqual([]);
      const bad = Object.keys(en).filter(
        (k) => placeholders(en[k] as string).join() !== placeholders(cat[k] as string).join(),
      );
      expect(bad).toEqual([]);
    });
  }
  test("translations are not English copies (beyond short technical words)", () => {
    const same = Object.keys(en).filter((k) => (en[k] as string).length > 12 && others.ru[k] === en[k]);
    expect(same).toEqual([]);
  });
});
