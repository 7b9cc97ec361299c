/**
 * Issue 8: the first password and `pithead reset-password` go to the terminal and to
 * DATA/initial-password only. Under systemd stdout is the journal (a pipe, not a terminal), so there the
 * password must not be printed. The CLI runs as its own process with stdout piped, and once under a
 * pseudo-terminal (util-linux `script`) to show that an operator at a terminal still sees it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/appliance.ts";
import { BUN, spawnAppliance } from "../support/process.ts";

const MAIN = join(import.meta.dir, "../../appliance/main.ts");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
const stored = (dir: string) => readFileSync(join(dir, "initial-password"), "utf8").trim();

describe("password output", () => {
  test("first start with stdout piped: the password is in the file, not in the output", async () => {
    const dir = fresh();
    const { proc, output } = await spawnAppliance(dir);
    try {
      const password = stored(dir);
      expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(output()).toContain(`password: in ${join(dir, "initial-password")}`);
      expect(output()).not.toContain(password);
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
    }
  });

  test("reset-password with stdout piped: the new password is in the file, not in the output", () => {
    const dir = fresh();
    const run = Bun.spawnSync([BUN, MAIN, "reset-password", "--data-dir", dir]);
    expect(run.exitCode).toBe(0);
    const out = run.stdout.toString() + run.stderr.toString();
    expect(out).toContain(`New admin password for "admin": in ${join(dir, "initial-password")}`);
    expect(out).not.toContain(stored(dir));
  });

  test("reset-password at a terminal shows the new password", () => {
    const dir = fresh();
    const command = [BUN, MAIN, "reset-password", "--data-dir", dir].map((a) => `'${a}'`).join(" ");
    const run = Bun.spawnSync(["script", "-qec", command, "/dev/null"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString()).toContain(`New admin password for "admin": ${stored(dir)}`);
  });
});
