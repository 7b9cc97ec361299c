import { resolve } from "node:path";

/** Everything the process is told at start, from the command line (env as fallback), as one typed object. */
export interface Config {
  command: "run" | "reset-password" | "audit" | "version" | "bundle" | "help";
  dataDir: string;
  /** null = use the stored web port (default 8080); 0 = any free port (tests) */
  webPort: number | null;
  /** PITHEAD_DEFAULT_WEB_PORT: the web port stored at first start (an image's port 80), changeable later */
  defaultWebPort: number | null;
  /** the console's HTTPS listener beside plain HTTP; null = 8443, 0 = any free port (tests) */
  httpsPort: number | null;
  host: string;
  /** tests only: every captcha answer is this code */
  testCaptcha: string | null;
  rest: string[];
}

export class ConfigError extends Error {}

const COMMANDS = new Set(["run", "reset-password", "audit", "version", "bundle", "help"]);

export function parseArgs(argv: string[], env: Record<string, string | undefined> = process.env): Config {
  const args = [...argv];
  const first = args[0] && !args[0].startsWith("-") ? (args.shift() as string) : "run";
  if (!COMMANDS.has(first)) throw new ConfigError(`unknown command "${first}" (try: pithead help)`);
  const cfg: Config = {
    command: first as Config["command"],
    dataDir: resolve(env.PITHEAD_DATA_DIR ?? "./data"),
    webPort: env.PITHEAD_WEB_PORT ? parsePort(env.PITHEAD_WEB_PORT) : null,
    defaultWebPort: env.PITHEAD_DEFAULT_WEB_PORT ? parsePort(env.PITHEAD_DEFAULT_WEB_PORT) : null,
    httpsPort: env.PITHEAD_HTTPS_PORT ? parsePort(env.PITHEAD_HTTPS_PORT) : null,
    host: env.PITHEAD_HOST ?? "0.0.0.0",
    testCaptcha: null,
    rest: [],
  };
  if (cfg.command === "bundle") {
    cfg.rest = args;
    return cfg;
  }
  if (cfg.command === "audit") {
    const sub = args.shift();
    if (sub !== "verify")
      throw new ConfigError(`unknown audit command "${sub ?? ""}" (try: pithead audit verify)`);
    cfg.rest = [sub];
  }
  while (args.length > 0) {
    const flag = args.shift() as string;
    const value = (): string => {
      const v = args.shift();
      if (v === undefined) throw new ConfigError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--data-dir":
        cfg.dataDir = resolve(value());
        break;
      case "--web-port":
        cfg.webPort = parsePort(value());
        break;
      case "--https-port":
        cfg.httpsPort = parsePort(value());
        break;
      case "--host":
        cfg.host = value();
        break;
      case "--test-captcha":
        cfg.testCaptcha = value();
        break;
      default:
        throw new ConfigError(`unknown option ${flag}`);
    }
  }
  return cfg;
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`invalid port "${text}"`);
  return n;
}
