import { join } from "node:path";
import type { Subprocess } from "bun";
import { TEST_CAPTCHA } from "./appliance.ts";

const ROOT = join(import.meta.dir, "..", "..");
export const BUN = process.execPath;

export interface Spawned {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  output: () => string;
}

/**
 * Starts the appliance as its own process (as systemd would), waits for its "listening on" line.
 * `command` defaults to running the sources with this Bun; pass a compiled executable to test that.
 */
export async function spawnAppliance(
  dataDir: string,
  command: string[] = [BUN, join(ROOT, "appliance/main.ts")],
): Promise<Spawned> {
  const proc = Bun.spawn(
    [
      ...command,
      "run",
      "--data-dir",
      dataDir,
      "--web-port",
      "0",
      "--https-port",
      "0",
      "--host",
      "127.0.0.1",
      "--test-captcha",
      TEST_CAPTCHA,
    ],
    { stdout: "pipe", stderr: "pipe", cwd: dataDir },
  );
  let out = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    out += decoder.decode(value);
    const m = out.match(/listening on (https?:\/\/\S+)/);
    if (m?.[1]) {
      // keep draining so the child never blocks on a full pipe
      void (async () => {
        for (;;) {
          const r = await reader.read();
          if (r.done) return;
          out += decoder.decode(r.value);
        }
      })();
      return { proc, url: m[1], output: () => out };
    }
  }
  proc.kill("SIGKILL");
  throw new Error(`appliance did not start:\n${out}\n${await new Response(proc.stderr).text()}`);
}
