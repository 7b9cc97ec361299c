import { join } from "node:path";
import { StaticAssets } from "./static.ts";

/**
 * The compiled executable carries the console as embedded files; a source checkout serves ui/dist.
 */
export function loadConsoleAssets(): StaticAssets {
  return StaticAssets.fromDirectory(join(import.meta.dir, "..", "..", "ui", "dist"));
}
