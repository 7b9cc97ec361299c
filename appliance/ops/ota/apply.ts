/**
 * Applying a bundle, up to the restart: verify → version checks → unpack beside the running release →
 * database backup → pending.json → atomic switch. The caller then restarts the program (exit code 75;
 * systemd's Restart=always starts it again) and the supervisor health-checks the new release, keeping
 * it or rolling back (supervisor.ts). Any refusal happens before anything is written.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { type VerifiedBundle, verifyBundle } from "./bundle.ts";
import { BundleError } from "./container.ts";
import { backupDatabase } from "./db-backup.ts";
import { installRelease } from "./install-release.ts";
import { otaPaths, type Pending } from "./layout.ts";
import { RUNTIME_FILE } from "./manifest.ts";
import { RELEASE_PUBLIC_KEY } from "./release-key.ts";
import { activeVersion } from "./releases.ts";
import { activeReleaseDir, switchRelease } from "./switch.ts";
import { logUpdate } from "./update-log.ts";
import { compareVersions } from "./version.ts";

/** Exit code with which the program asks its supervisor (and systemd) to start it again. */
export const RESTART_EXIT_CODE = 75;

export class UpdateRefused extends Error {
  constructor(
    readonly code:
      | BundleError["code"]
      | "downgrade"
      | "same_version"
      | "runtime_too_old"
      | "wrong_arch"
      | "busy",
    message: string,
  ) {
    super(message);
  }
}

export interface ApplyOptions {
  dataDir: string;
  bundle: Uint8Array;
  /** defaults to the key built into this executable */
  publicKey?: string;
  /** allow installing an older or the same version */
  force?: boolean;
  /** version of the runtime that will run a bundle without its own executable (defaults to this one) */
  runtimeVersion?: string;
}

export interface ApplyResult {
  from: string;
  to: string;
  /** the caller must now restart the program (exit with RESTART_EXIT_CODE) */
  restart: true;
}

/** The architecture an ELF executable is built for, in process.arch terms ("x64", "arm64", …). */
function elfArch(bytes: Uint8Array): string {
  const elf = bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
  if (!elf || bytes.length < 20) return "not an executable";
  const machine = new DataView(bytes.buffer, bytes.byteOffset, 20).getUint16(18, true);
  return machine === 62 ? "x64" : machine === 183 ? "arm64" : `machine ${machine}`;
}

async function exists(path: string): Promise<boolean> {
  return Bun.file(path).exists();
}

async function refuse(dataDir: string, e: UpdateRefused, to?: string): Promise<never> {
  await logUpdate(dataDir, { event: "refused", to, message: e.message });
  throw e;
}

async function verified(opts: ApplyOptions): Promise<VerifiedBundle> {
  try {
    return verifyBundle(opts.bundle, opts.publicKey ?? RELEASE_PUBLIC_KEY);
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    return refuse(opts.dataDir, new UpdateRefused(e.code, `update refused: ${e.message}`));
  }
}

export async function applyBundle(opts: ApplyOptions): Promise<ApplyResult> {
  const { dataDir } = opts;
  const p = otaPaths(dataDir);
  if (await exists(p.pending)) {
    return refuse(
      dataDir,
      new UpdateRefused("busy", "update refused: another update is still being checked"),
    );
  }
  const bundle = await verified(opts);
  const to = bundle.manifest.version;
  const from = await activeVersion(dataDir);
  const order = compareVersions(to, from);
  if (order < 0 && !opts.force) {
    const msg = `update refused: ${to} is older than the running ${from} (downgrade needs force)`;
    return refuse(dataDir, new UpdateRefused("downgrade", msg), to);
  }
  if (order === 0 && !opts.force) {
    return refuse(
      dataDir,
      new UpdateRefused("same_version", `update refused: ${to} is already installed`),
      to,
    );
  }
  const exe = bundle.files.get(RUNTIME_FILE);
  if (exe && elfArch(exe) !== process.arch) {
    const msg = `update refused: the bundle's executable is for ${elfArch(exe)}, this appliance is ${process.arch}`;
    return refuse(dataDir, new UpdateRefused("wrong_arch", msg), to);
  }
  const runtime = opts.runtimeVersion ?? Bun.version;
  if (!bundle.files.has(RUNTIME_FILE) && compareVersions(runtime, bundle.manifest.min_runtime) < 0) {
    const msg = `update refused: ${to} needs runtime ${bundle.manifest.min_runtime}, this appliance has ${runtime}; use a bundle that includes the runtime`;
    return refuse(dataDir, new UpdateRefused("runtime_too_old", msg), to);
  }
  await logUpdate(dataDir, { event: "verified", from, to, message: `bundle ${to} verified` });

  const dir = await installRelease(dataDir, bundle);
  await logUpdate(dataDir, { event: "installed", from, to, message: `unpacked into ${dir}` });
  const pending: Pending = {
    from,
    to,
    previous: await activeReleaseDir(dataDir),
    db_backup: await backupDatabase(dataDir, from),
    started_at: new Date().toISOString(),
  };
  await mkdir(p.ota, { recursive: true });
  await writeFile(`${p.pending}.tmp`, JSON.stringify(pending));
  await rename(`${p.pending}.tmp`, p.pending);
  await switchRelease(dataDir, dir);
  await logUpdate(dataDir, { event: "switched", from, to, message: `switched to ${to}; restarting` });
  return { from, to, restart: true };
}
