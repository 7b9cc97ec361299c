/**
 * Atomic switch of the active release: a new symlink is made under a temporary name and renamed over
 * `current`, so a crash leaves either the old or the new link, never none.
 */
import { readlink, rename, rm, symlink } from "node:fs/promises";
import { otaPaths } from "./layout.ts";

/** The release directory `current` points to, or null for the built-in release. */
export async function activeReleaseDir(dataDir: string): Promise<string | null> {
  try {
    return await readlink(otaPaths(dataDir).current);
  } catch {
    return null;
  }
}

/** Points `current` at `target` (absolute release dir), or removes it (built-in) when target is null. */
export async function switchRelease(dataDir: string, target: string | null): Promise<void> {
  const { current } = otaPaths(dataDir);
  if (target === null) {
    await rm(current, { force: true });
    return;
  }
  const tmp = `${current}.new-${process.pid}`;
  await rm(tmp, { force: true });
  await symlink(target, tmp);
  await rename(tmp, current);
}
