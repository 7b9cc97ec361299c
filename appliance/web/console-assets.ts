import { join } from "node:path";
import { StaticAssets } from "./static.ts";

const EMBEDDED_PREFIX = "console/";
/** Precompressed siblings made by `make dist`; StaticAssets compresses what it serves itself. */
const SIBLING = /\.(gz|br)$/;

/**
 * The compiled executable carries the console as embedded files named `console/<path>` (see
 * scripts/dist.ts); a source checkout serves ui/dist, or PITHEAD_CONSOLE_DIR when set (an OTA release).
 */
export async function loadConsoleAssets(): Promise<StaticAssets> {
  const embedded = Bun.embeddedFiles.filter(
    (f) => nameOf(f).startsWith(EMBEDDED_PREFIX) && !SIBLING.test(nameOf(f)),
  );
  if (embedded.length > 0 && !process.env.PITHEAD_CONSOLE_DIR) {
    const entries = await Promise.all(
      embedded.map(
        async (f): Promise<[string, Uint8Array<ArrayBuffer>]> => [
          `/${nameOf(f).slice(EMBEDDED_PREFIX.length)}`,
          new Uint8Array(await f.arrayBuffer()),
        ],
      ),
    );
    return new StaticAssets(entries);
  }
  return StaticAssets.fromDirectory(
    process.env.PITHEAD_CONSOLE_DIR ?? join(import.meta.dir, "..", "..", "ui", "dist"),
  );
}

function nameOf(f: Blob): string {
  return (f as Blob & { name?: string }).name ?? "";
}
