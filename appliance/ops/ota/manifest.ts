/**
 * The signed part of a bundle. `files` maps each path to the sha256 (hex) of its bytes and `sizes` to
 * its length, in the order the bytes follow in the container. Paths are relative, POSIX, and limited
 * to the folders a release has, so unpacking can never write outside the release directory.
 */
import { isVersion } from "./version.ts";

export interface Manifest {
  format: 1;
  version: string;
  /** lowest Bun runtime the application code needs; a bundle that carries `pithead` brings its own */
  min_runtime: string;
  created: string;
  files: Record<string, string>;
  sizes: Record<string, number>;
}

export const RELEASE_DIRS = ["app/", "console/"] as const;
/** A bundle may carry a whole new executable (runtime + application) under this name. */
export const RUNTIME_FILE = "pithead";

export function isSafePath(p: string): boolean {
  if (p === RUNTIME_FILE) return true;
  if (!RELEASE_DIRS.some((d) => p.startsWith(d))) return false;
  if (p.includes("\\") || p.includes("\0") || p.endsWith("/")) return false;
  return p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

/** Returns the problem with a parsed manifest, or null when it is well formed. */
export function manifestProblem(m: unknown): string | null {
  if (typeof m !== "object" || m === null) return "manifest is not an object";
  const r = m as Record<string, unknown>;
  if (r.format !== 1) return "unknown manifest format";
  if (typeof r.version !== "string" || !isVersion(r.version)) return "manifest version is not a version";
  if (typeof r.min_runtime !== "string" || !isVersion(r.min_runtime)) return "min_runtime is not a version";
  if (typeof r.files !== "object" || r.files === null) return "manifest has no files";
  if (typeof r.sizes !== "object" || r.sizes === null) return "manifest has no sizes";
  const files = r.files as Record<string, unknown>;
  const sizes = r.sizes as Record<string, unknown>;
  for (const [path, hash] of Object.entries(files)) {
    if (!isSafePath(path)) return `unsafe path in manifest: ${path}`;
    if (typeof hash !== "string" || !/^[0-9a-f]{64}$/.test(hash)) return `bad sha256 for ${path}`;
    const size = sizes[path];
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) return `bad size for ${path}`;
  }
  if (Object.keys(sizes).length !== Object.keys(files).length) return "sizes do not match files";
  if (!("app/main.js" in files) && !(RUNTIME_FILE in files))
    return "bundle has neither app/main.js nor pithead";
  return null;
}
