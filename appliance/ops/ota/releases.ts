/**
 * Read side for the console and API: which releases are installed, which one is active, what the
 * update source offers.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename } from "node:path";
import { otaPaths } from "./layout.ts";
import type { Manifest } from "./manifest.ts";
import { activeReleaseDir } from "./switch.ts";
import { BUILT_IN_VERSION, compareVersions, isVersion } from "./version.ts";

export interface ReleaseInfo {
  version: string;
  /** "builtin" is the installed executable; "ota" a release unpacked from a bundle */
  kind: "builtin" | "ota";
  active: boolean;
  /** the OTA release carries its own runtime executable */
  runtime: boolean;
  created: string | null;
}

/** Version of the executable the service was installed with (the supervisor passes it down). */
export function builtinVersion(): string {
  const v = process.env.PITHEAD_BUILTIN_VERSION;
  return v && isVersion(v) ? v : BUILT_IN_VERSION;
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readFile(`${dir}/manifest.json`, "utf8")) as Manifest;
  } catch {
    return null;
  }
}

/** The version that runs after the next (re)start: the `current` release, else the built-in one. */
export async function activeVersion(dataDir: string): Promise<string> {
  const dir = await activeReleaseDir(dataDir);
  if (dir === null) return builtinVersion();
  return (await readManifest(dir))?.version ?? builtinVersion();
}

/** Every release, newest first, for `GET /api/releases`. */
export async function listReleases(dataDir: string): Promise<ReleaseInfo[]> {
  const p = otaPaths(dataDir);
  const active = await activeReleaseDir(dataDir);
  const out: ReleaseInfo[] = [
    { version: builtinVersion(), kind: "builtin", active: active === null, runtime: true, created: null },
  ];
  let names: string[] = [];
  try {
    names = await readdir(p.releases);
  } catch {
    // no OTA release yet
  }
  for (const name of names) {
    if (!isVersion(name)) continue; // skips releases/<v>.partial-* left by a crash
    const m = await readManifest(p.release(name));
    if (!m) continue;
    out.push({
      version: m.version,
      kind: "ota",
      active: active !== null && basename(active) === name,
      runtime: "pithead" in m.files,
      created: m.created,
    });
  }
  return out.sort((a, b) => compareVersions(b.version, a.version));
}

export interface VersionInfo {
  /** the version of the code answering */
  version: string;
  runtime: string;
  builtin: string;
  /** newest version the update source offers, when one is configured and answered */
  latest: string | null;
  update_available: boolean;
}

/**
 * For `GET /api/version`. `updateSource` is the URL from settings; it serves JSON `{version, url?,
 * notes?}` (a central instance serves the same shape). A source that does not answer is not an error.
 */
export async function versionInfo(opts: {
  updateSource?: string | null;
  timeoutMs?: number;
}): Promise<VersionInfo> {
  const latest = opts.updateSource ? await checkUpdateSource(opts.updateSource, opts.timeoutMs) : null;
  const version = BUILT_IN_VERSION;
  return {
    version,
    runtime: Bun.version,
    builtin: builtinVersion(),
    latest: latest?.version ?? null,
    update_available: latest !== null && compareVersions(latest.version, version) > 0,
  };
}

export interface UpdateOffer {
  version: string;
  url: string | null;
  notes: string | null;
}

export async function checkUpdateSource(url: string, timeoutMs = 5000): Promise<UpdateOffer | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    const body = (await res.json()) as Record<string, unknown>;
    if (typeof body.version !== "string" || !isVersion(body.version)) return null;
    return {
      version: body.version,
      url: typeof body.url === "string" ? new URL(body.url, url).href : null,
      notes: typeof body.notes === "string" ? body.notes : null,
    };
  } catch {
    return null;
  }
}
