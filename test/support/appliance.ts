import { constants, publicEncrypt } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AlertTiming } from "../../appliance/alerts/alert-service.ts";
import { type Appliance, startAppliance } from "../../appliance/appliance.ts";
import { parseArgs } from "../../appliance/config.ts";

export const TEST_CAPTCHA = "1234";

export function tempDir(prefix = "pithead-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Encrypts a password the way the console does: RSA-OAEP with SHA-256, base64. */
export function encryptPassword(pem: string, password: string): string {
  return publicEncrypt(
    { key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    Buffer.from(password, "utf8"),
  ).toString("base64");
}

export interface ApiReply<T = unknown> {
  status: number;
  body: T;
}

/** A small API client for tests: JSON in and out, with the session's bearer token. */
export class Client {
  token = "";

  constructor(public base: string) {}

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ApiReply<T>> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      tls: { rejectUnauthorized: false },
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (static files, plain 404s): keep the text
    }
    return { status: res.status, body: parsed as T };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.call<T>("GET", path);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.call<T>("POST", path, body ?? {});
  }
  del<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.call<T>("DELETE", path, body);
  }

  /** Proves the password again for this session (the routes that change wallets, pools, tokens). */
  async reauth(password: string): Promise<ApiReply<Record<string, unknown>>> {
    return this.post("/api/_/reauth", { password: await this.reauthCipher(password) });
  }

  /** The re-authentication ciphertext as the console makes it: "challenge:password", RSA-encrypted. */
  async reauthCipher(password: string): Promise<string> {
    const { body: key } = await this.get<{ pem: string }>("/api/_/pubkey");
    const { body: challenge } = await this.get<{ challenge: string }>("/api/_/reauth");
    return encryptPassword(key.pem, `${challenge.challenge}:${password}`);
  }

  /**
   * The password change as the console sends it: the three passwords sealed as "challenge:password"
   * with one challenge of GET /api/_/changepassword.
   */
  async changePassword(
    username: string,
    current: string,
    next: string,
    again = next,
  ): Promise<ApiReply<Record<string, unknown>>> {
    const { body: key } = await this.get<{ pem: string }>("/api/_/pubkey");
    const { body: challenge } = await this.get<{ challenge: string }>("/api/_/changepassword");
    const seal = (password: string) => encryptPassword(key.pem, `${challenge.challenge}:${password}`);
    return this.post("/api/_/changepassword", {
      username,
      rawpassword: seal(current),
      password: seal(next),
      repassword: seal(again),
    });
  }

  /**
   * Logs in through the public wire format (pubkey, captcha, the password RSA-encrypted as
   * "captcha id:password", so that the ciphertext is bound to its captcha).
   */
  async login(
    username: string,
    password: string,
    remember = false,
  ): Promise<ApiReply<Record<string, unknown>>> {
    const { body: key } = await this.get<{ pem: string }>("/api/_/pubkey");
    const { body: captcha } = await this.get<{ id: string }>("/api/_/captcha");
    const res = await this.post("/api/_/login", {
      username,
      password: encryptPassword(key.pem, `${captcha.id}:${password}`),
      captcha_id: captcha.id,
      captcha: TEST_CAPTCHA,
      remember,
    });
    if (res.status === 200) this.token = String(res.body.token);
    return res;
  }
}

export interface TestAppliance {
  app: Appliance;
  dataDir: string;
  client: Client;
  password: string;
  /** stops the appliance; removes the data dir unless keep is set */
  close(keep?: boolean): Promise<void>;
}

/** Starts the real appliance in-process on 127.0.0.1 with a fresh (or given) data dir, logged in. */
export async function startTestAppliance(
  dataDir = tempDir(),
  login = true,
  /** clock: the appliance's time in ms (sessions, audit log); a test moves it instead of waiting */
  opts: { clock?: () => number; alertTiming?: Partial<AlertTiming> } = {},
  /** more command-line arguments; a flag given here wins over the default above */
  extraArgs: string[] = [],
): Promise<TestAppliance> {
  const config = parseArgs([
    "run",
    "--data-dir",
    dataDir,
    "--web-port",
    "0",
    "--https-port",
    "0",
    "--host",
    "127.0.0.1",
    "--test-captcha",
    TEST_CAPTCHA,
    ...extraArgs,
  ]);
  const app = await startAppliance(config, {
    timing: { loginTimeoutMs: 3000, jobTimeoutMs: 3000, connectTimeoutMs: 2000, failbackProbeMs: 500 },
    clock: opts.clock,
    alertTiming: opts.alertTiming,
  });
  const file = join(dataDir, "initial-password");
  const password = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  const client = new Client(app.url());
  if (login) {
    const res = await client.login("admin", password);
    if (res.status !== 200) throw new Error(`test login failed: ${JSON.stringify(res.body)}`);
  }
  return {
    app,
    dataDir,
    client,
    password,
    async close(keep = false) {
      await app.stop();
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A valid port body to vary in tests. */
export function portBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    port: 0,
    name: "test",
    currency: "BTC",
    pool_address: "127.0.0.1:1",
    connect_mode: 0,
    mode: 0,
    protocol: 0,
    status: 0,
    wallets: [
      { addr: "bc1qfee", device: "fee1", pool_address: "127.0.0.1:1", pool_protocol: 0, ratio: 0.02 },
    ],
    ...overrides,
  };
}

export { freePort } from "./free-port.ts";
