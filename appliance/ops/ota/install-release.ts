/**
 * Unpacks a verified bundle beside the running release: written under a temporary name and renamed to
 * releases/<version>, so a half-written release is never visible under its real name.
 */
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { VerifiedBundle } from "./bundle.ts";
import { otaPaths } from "./layout.ts";
import { RUNTIME_FILE } from "./manifest.ts";

export async function installRelease(dataDir: string, bundle: VerifiedBundle): Promise<string> {
  const p = otaPaths(dataDir);
  const dir = p.release(bundle.manifest.version);
  const tmp = `${dir}.partial-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    for (const [path, bytes] of bundle.files) {
      const file = join(tmp, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
    }
    if (bundle.files.has(RUNTIME_FILE)) await chmod(join(tmp, RUNTIME_FILE), 0o755);
    await writeFile(join(tmp, "manifest.json"), JSON.stringify(bundle.manifest, null, 1));
    // Re-installing a version (forced) replaces the earlier copy; it is never the active one here.
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  return dir;
}
