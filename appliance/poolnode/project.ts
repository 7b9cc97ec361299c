/**
 * The pool-node project (docs/pool-node.md): which coin, which daemon and how to log in to it, where
 * the block rewards go, the fee and PPLNS window the accounting uses, when balances are paid, the share
 * difficulty and the stratum port miners connect to. Kept as one setting; the daemon password never
 * leaves the server.
 */
import { z } from "zod";
import type { SettingsStore } from "../store/settings.ts";
import { MIN_PAYOUT_COINS } from "./amounts.ts";
import type { DaemonEndpoint } from "./daemon/rpc-client.ts";
import { POOL_COINS, type PoolCoinName } from "./pool/coins.ts";

export const PROJECT_SETTING = "poolnode.project";

const KEY = "lang.poolnode.err_config";

export const projectSchema = z.object({
  coin: z.enum(Object.keys(POOL_COINS) as [PoolCoinName, ...PoolCoinName[]], KEY),
  rpc_url: z
    .string(KEY)
    .trim()
    .regex(/^https?:\/\/[^\s/]+\/?$/, KEY),
  rpc_cookie_file: z.string(KEY).trim().max(4096, KEY).default(""),
  rpc_user: z.string(KEY).trim().max(256, KEY).default(""),
  /** empty on an update: keep the stored one */
  rpc_password: z.string(KEY).max(256, KEY).default(""),
  pool_address: z.string(KEY).trim().min(1, KEY).max(128, KEY),
  fee: z.number(KEY).min(0, KEY).max(1, KEY).default(0.01),
  /** in units of difficulty-1 work */
  pplns_window: z.number(KEY).positive(KEY).default(1_000_000),
  /** in coins: a balance is paid once it reaches this; below the dust a wallet would refuse */
  payout_threshold: z.number(KEY).min(MIN_PAYOUT_COINS, KEY).max(1_000_000, KEY).default(0.1),
  /** how often due balances are paid (one sendmany each time) */
  payout_interval_seconds: z
    .number(KEY)
    .int(KEY)
    .min(1, KEY)
    .max(7 * 86_400, KEY)
    .default(3600),
  /** the difficulty a miner starts at */
  difficulty: z.number(KEY).positive(KEY).max(1e15, KEY),
  /** vardiff aims at one share per miner every this many seconds; 0: every miner keeps `difficulty` */
  vardiff_seconds: z.number(KEY).min(0, KEY).max(600, KEY).default(10),
  stratum_port: z.number(KEY).int(KEY).min(1, KEY).max(65534, KEY),
});
export type Project = z.infer<typeof projectSchema>;

export interface StoredProject extends Project {
  active: boolean;
}

/** What a project stored before a field existed reads as. */
const ADDED_LATER = { payout_threshold: 0.1, payout_interval_seconds: 3600 } as const;

export function readProject(settings: SettingsStore): StoredProject | null {
  const stored = settings.get<StoredProject | null>(PROJECT_SETTING, null);
  return stored === null ? null : { ...ADDED_LATER, ...stored };
}

/** Checks the credentials: a cookie file, or a user and a password (given now or stored before). */
export function withCredentials(next: Project, stored: StoredProject | null): Project {
  const password = next.rpc_password === "" && stored !== null ? stored.rpc_password : next.rpc_password;
  const merged = { ...next, rpc_password: password };
  const cookie = merged.rpc_cookie_file !== "";
  const user = merged.rpc_user !== "" && merged.rpc_password !== "";
  if (cookie === user) throw new CredentialsError();
  return merged;
}

export class CredentialsError extends Error {
  constructor() {
    super("give either a cookie file or a user and a password");
  }
}

/** As the API shows it: the password only as whether one is set. */
export function publicProject(
  p: StoredProject,
): Omit<StoredProject, "rpc_password"> & { rpc_password_set: boolean } {
  const { rpc_password, ...rest } = p;
  return { ...rest, rpc_password_set: rpc_password !== "" };
}

export function daemonEndpoint(p: Project): DaemonEndpoint {
  return {
    url: p.rpc_url,
    credentials:
      p.rpc_cookie_file !== ""
        ? { cookieFile: p.rpc_cookie_file }
        : { user: p.rpc_user, password: p.rpc_password },
  };
}
