/**
 * E2E harness: the real server (appliance/main.ts) on a temporary data dir and port 0, and Debian's
 * Chromium driven by playwright-core. No server answer is faked.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { spawnAppliance } from "../support/process.ts";

export const ROOT = join(import.meta.dir, "../..");
export const ARTIFACTS = join(ROOT, "test/artifacts");

export interface Server {
  url: string;
  /** the same console on the HTTPS listener (the appliance's self-signed certificate) */
  httpsUrl: string;
  dataDir: string;
  password: () => string;
  stop: () => Promise<void>;
}

export async function startServer(): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), "pithead-e2e-"));
  const { proc, url, output } = await spawnAppliance(dataDir);
  return {
    url: url.replace(/\/$/, ""),
    httpsUrl: await httpsListener(output),
    dataDir,
    password: () => readFileSync(join(dataDir, "initial-password"), "utf8").trim(),
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The HTTPS listener's address, from the line the appliance prints once it is bound. */
async function httpsListener(output: () => string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const m = output().match(/listening on HTTPS (https:\/\/\S+)/);
    if (m?.[1]) return m[1].replace(/\/$/, "");
    await Bun.sleep(100);
  }
  throw new Error(`the appliance offered no HTTPS console:\n${output()}`);
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Logs in through the form (the RSA path of the login page) and waits for the dashboard. */
export async function login(
  page: Page,
  url: string,
  username: string,
  password: string,
  remember?: boolean,
): Promise<void> {
  await page.goto(`${url}/login`);
  // type the code only once its image is there, as a user would: a fresh appliance starts its
  // captcha worker on the first request, and a form sent before that carries no captcha id
  await page.locator("form img").waitFor({ timeout: 45_000 });
  if (remember !== undefined) await page.getByLabel("Remember account").setChecked(remember);
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.fill('input[name="captcha"]', "1234");
  await page.click('button[type="submit"]');
  // a fresh appliance's first login (its captcha worker starting, Argon2 at a loaded CI box's
  // speed, and in the pool-node test two litecoind nodes starting beside it) can take past 15 s
  await page.waitForSelector('[data-testid="dashboard"]', { timeout: 45_000 });
}

/** Waits for a toast containing the text. */
export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await page.getByTestId("toast").filter({ hasText: text }).first().waitFor();
}

/** Confirms the pending confirmation dialog. */
export async function confirm(page: Page): Promise<void> {
  const dlg = page.getByTestId("confirm");
  await dlg.getByRole("button", { name: "OK" }).click();
  await dlg.waitFor({ state: "detached" });
}

export { freePort } from "../support/free-port.ts";
