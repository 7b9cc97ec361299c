/** `pithead client …` run as a process, for the tests of the command itself. */
import { join } from "node:path";
import { BUN } from "../process.ts";

/**
 * Starts `pithead client` with `args` and waits for its start line; returns the local port it
 * listens on and what it printed. `cleanup` stops it (SIGTERM, as systemd would).
 */
export async function startClientProcess(
  cleanup: Array<() => Promise<void> | void>,
  args: string[],
  kencKey: string,
): Promise<{ port: number; out: string }> {
  const proc = Bun.spawn([BUN, join(import.meta.dir, "../../../appliance/main.ts"), "client", ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PITHEAD_KENC_KEY: kencKey },
  });
  cleanup.push(async () => {
    proc.kill("SIGTERM");
    await proc.exited;
  });
  const reader = proc.stdout.getReader();
  let out = "";
  let port = 0;
  while (port === 0) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`pithead client exited:\n${out}\n${await new Response(proc.stderr).text()}`);
    out += new TextDecoder().decode(value);
    port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1] ?? 0);
  }
  return { port, out };
}
