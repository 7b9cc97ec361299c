#!/usr/bin/env bun
import { join } from "node:path";
import { openFoundation, VERSION } from "./app.ts";
import { startAppliance } from "./appliance.ts";
import { REDACTED } from "./audit/diff.ts";
import { INITIAL_PASSWORD_FILE } from "./auth/account.ts";
import { announcePassword } from "./auth/password-notice.ts";
import { type Config, ConfigError, parseArgs } from "./config.ts";

const HELP = `pithead ${VERSION} — stratum proxy appliance

usage:
  pithead run [--data-dir DIR] [--web-port N] [--https-port N] [--host ADDR]
                                                               start the appliance (default command)
  pithead reset-password [--data-dir DIR]                      set a new random admin password
  pithead audit verify [--data-dir DIR]                        check the audit log's hash chain
  pithead version                                              print the version
  pithead bundle build|sign|verify ...                         OTA bundle tools
  pithead client --server HOST:PORT [--listen [ADDR:]PORT] [--kenc-key KEY] [--tunnel rms|rms2|rms3
                 [--password P] [--name NAME] [--bind ADDR]]   carry local miners to a KENC port, or
                                                               all of them over one RMS tunnel

DIR defaults to ./data; the web port to the stored one (8080 at first); the HTTPS console's port
to 8443; ADDR to 0.0.0.0.
--test-captcha CODE is for automated tests only: every captcha answer becomes CODE.`;

async function main(argv: string[]): Promise<number> {
  // the farm-side client has its own options and no data directory
  if (argv[0] === "client") {
    const { runClientCli } = await import("./client/cli.ts");
    return runClientCli(argv.slice(1));
  }
  let config: Config;
  try {
    config = parseArgs(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`pithead: ${err.message}`);
      return 2;
    }
    throw err;
  }
  switch (config.command) {
    case "help":
      console.log(HELP);
      return 0;
    case "version":
      console.log(VERSION);
      return 0;
    case "reset-password":
      return resetPassword(config);
    case "audit": {
      const { verifyAuditLog } = await import("./audit/verify-cli.ts");
      return verifyAuditLog(config.dataDir);
    }
    case "bundle": {
      const { runBundleCli } = await import("./ops/ota/cli.ts");
      return runBundleCli(config.rest);
    }
    case "run":
      return run(config);
  }
}

async function resetPassword(config: Config): Promise<number> {
  const f = openFoundation(config);
  const password = await f.account.resetPassword();
  f.logs.add("operation", "admin password reset from the command line; all sessions signed out");
  f.audit.append({
    credential: "cli",
    session: "",
    address: "",
    action: "pithead reset-password",
    object: "admin account",
    outcome: "changed",
    changes: [
      { field: "password", old: REDACTED, new: REDACTED },
      { field: "machine tokens", old: REDACTED, new: REDACTED },
    ],
  });
  const username = f.account.username();
  f.logs.close();
  f.db.close();
  const file = join(config.dataDir, INITIAL_PASSWORD_FILE);
  announcePassword((line) => console.log(line), `New admin password for "${username}"`, password, file);
  return 0;
}

async function run(config: Config): Promise<number> {
  const appliance = await startAppliance(config, {
    say: (line) => console.log(line),
    // miners cannot mine until the engine runs again: end, and systemd (Restart=always) starts
    // the appliance again with every port
    onEngineFailure: (reason) => {
      console.error(`${reason}; exiting so that the service restarts`);
      process.exit(1);
    },
  });
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  await appliance.stop();
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
