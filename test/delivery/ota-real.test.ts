/**
 * The update path with the real program: the x64 executable (built with a throwaway release key)
 * runs as the service does (`bundle supervise`), an admin uploads a bundle of the next version
 * built from this checkout, the program restarts into it, the supervisor health-checks it, and the
 * admin logs in again with the same password (the data survived). A bundle signed with another key
 * is refused by the API and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import pkg from "../../package.json" with { type: "json" };
import { login } from "./login.ts";
import { throwawayKeys } from "./ota-fixtures.ts";

setDefaultTimeout(180_000);
const root = join(import.meta.dir, "../..");
const next = pkg.version.replace(/(\d+)$/, (n) => String(Number(n) + 1));
const keys = throwawayKeys();

let work: string;
let dataDir: string;
let sup: Subprocess<"ignore", "pipe", "pipe"> | null = null;
const lines: string[] = [];
let waiters: (() => void)[] = [];

function build(cmd: string[], env: Record<string, string> = {}): void {
  const r = Bun.spawnSync(cmd, { cwd: root, env: { ...process.env, ...env } });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
}

/** The n-th (0-based) `listening on` URL the supervised program has printed. */
async function listening(n: number): Promise<string> {
  for (;;) {
    const urls = lines.map((l) => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(l)?.[1]).filter(Boolean);
    if (urls.length > n) return urls[n] as string;
    if (sup?.exitCode !== null) throw new Error(`supervisor exited:\n${lines.join("\n")}`);
    await new Promise<void>((r) => waiters.push(r));
  }
}

async function upload(base: string, token: string, file: string): Promise<Response> {
  const form = new FormData();
  form.append("bundle", new Blob([await readFile(file)]), "update.bundle");
  return fetch(`${base}/api/update/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "pithead-ota-real-"));
  const keyFile = join(work, "release.key");
  await writeFile(keyFile, keys.privateKey);
  const otherKey = join(work, "other.key");
  await writeFile(otherKey, throwawayKeys().privateKey);
  build([process.execPath, "scripts/dist.ts", "--targets", "x64", "--out", work, "--no-bundle"], {
    PITHEAD_RELEASE_PUBKEY: keys.publicKey,
  });
  const bundleCmd = [process.execPath, "appliance/main.ts", "bundle", "build", "--version", next];
  build([...bundleCmd, "--key", keyFile, "--out", join(work, "next.bundle")]);
  build([...bundleCmd, "--key", otherKey, "--out", join(work, "foreign.bundle")]);
  const cwd = await mkdtemp(join(tmpdir(), "pithead-empty-"));
  dataDir = join(cwd, "data");
  const args = ["bundle", "supervise", "--data-dir", dataDir, "--health-timeout", "60"];
  const run = ["--", "--web-port", "0", "--host", "127.0.0.1", "--test-captcha", "1234"];
  sup = Bun.spawn([join(work, "pithead-linux-x64"), ...args, ...run], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  void (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of (sup as Subprocess<"ignore", "pipe", "pipe">).stdout) {
      buf += dec.decode(chunk, { stream: true });
      const parts = buf.split("\n");
      buf = parts.pop() ?? "";
      lines.push(...parts);
      for (const w of waiters) w();
      waiters = [];
    }
    for (const w of waiters) w();
  })();
});

afterAll(async () => {
  sup?.kill("SIGTERM");
  await sup?.exited;
});

describe("OTA update of the real program", () => {
  test("upload → restart → health check → new version, same data", async () => {
    const first = await listening(0);
    const password = (await readFile(join(dataDir, "initial-password"), "utf8")).trim();
    const token = await login(first, password, "1234");

    const foreign = await upload(first, token, join(work, "foreign.bundle"));
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(await foreign.json())).toContain("release key");

    const res = await upload(first, token, join(work, "next.bundle"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ from: pkg.version, to: next, restart: true });

    const second = await listening(1);
    expect(await (await fetch(`${second}/healthz`)).json()).toEqual({ ok: true, version: next });
    const again = await login(second, password, "1234");
    const auth = { headers: { authorization: `Bearer ${again}` } };
    const releases = (await (await fetch(`${second}/api/releases`, auth)).json()) as {
      version: string;
      active: boolean;
    }[];
    expect(releases.find((r) => r.active)?.version).toBe(next);
    // The supervisor records the passed health check once it has seen it.
    for (;;) {
      const log = (await (await fetch(`${second}/api/update/log`, auth)).json()) as { event: string }[];
      if (log[0]?.event === "healthy") break;
      await Bun.sleep(200);
    }
  });
});
