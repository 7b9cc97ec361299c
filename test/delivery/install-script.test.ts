/**
 * Fast checks of image/install.sh that need no throwaway root: it parses as POSIX sh, documents its
 * commands, refuses clearly (not root, no systemd, wrong architecture) before changing anything, and
 * carries exactly systemd/pithead.service. The full install/upgrade/reset cycle in a Debian chroot
 * runs in `make image-test` (image/test-install-chroot.sh).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdtempSync } from "node:fs";
import { mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const script = join(root, "image/install.sh");
const isRoot = process.getuid?.() === 0;

/**
 * The checkout may sit in a directory only root can enter (a CI clone under a 0700 temp dir), so the
 * unprivileged run reads a world-readable copy of the script.
 */
function readableCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "pithead-sh-"));
  chmodSync(dir, 0o755);
  const copy = join(dir, "install.sh");
  copyFileSync(script, copy);
  chmodSync(copy, 0o644);
  return copy;
}

function sh(args: string[], opts: { asNobody?: boolean; path?: string } = {}) {
  let cmd = ["sh", script, ...args];
  if (opts.asNobody && isRoot) {
    const copy = readableCopy();
    cmd = ["runuser", "-u", "nobody", "--", "sh", copy, ...args.map((a) => (a === script ? copy : a))];
  }
  const env = { ...process.env, ...(opts.path ? { PATH: opts.path } : {}) };
  const r = Bun.spawnSync(cmd, { env, stdin: "ignore" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** A minimal ELF header whose e_machine says `machine` (62 = x86-64, 183 = aarch64). */
async function fakeElf(machine: number): Promise<string> {
  const head = new Uint8Array(64);
  head.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  new DataView(head.buffer).setUint16(18, machine, true);
  const file = join(await mkdtemp(join(tmpdir(), "pithead-elf-")), "pithead");
  await writeFile(file, head, { mode: 0o755 });
  return file;
}

/** A PATH holding only the tools the script's early checks use, but not systemctl. */
async function pathWithoutSystemd(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pithead-path-"));
  for (const tool of ["id", "sh", "uname", "od", "tr", "head", "cat"]) {
    const found = Bun.which(tool);
    if (found) await symlink(found, join(dir, tool));
  }
  return dir;
}

describe("image/install.sh", () => {
  test("parses as POSIX sh (dash)", () => {
    const r = Bun.spawnSync(["dash", "-n", script]);
    expect(r.stderr.toString()).toBe("");
    expect(r.exitCode).toBe(0);
  });

  test("--help lists every command", () => {
    const r = sh(["--help"]);
    expect(r.code).toBe(0);
    for (const c of [
      "install FILE",
      "upgrade FILE",
      "reset-password",
      "factory-reset",
      "uninstall",
      "status",
    ]) {
      expect(r.out).toContain(c);
    }
  });

  test("an unknown command is an error with the usage", () => {
    const r = sh(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command frobnicate");
  });

  test("refuses to run as a normal user", () => {
    for (const args of [["install", script], ["reset-password"], ["uninstall"], ["factory-reset"]]) {
      const r = sh(args, { asNobody: true });
      expect(r.code).toBe(1);
      expect(r.err).toContain("must run as root");
    }
  });

  test.skipIf(!isRoot)("refuses without systemd", async () => {
    const r = sh(["install", script], { path: await pathWithoutSystemd() });
    expect(r.code).toBe(1);
    expect(r.err).toContain("systemd is required");
  });

  test.skipIf(!isRoot || Bun.which("systemctl") === null)(
    "refuses an executable of the wrong architecture",
    async () => {
      const other = process.arch === "arm64" ? 62 : 183;
      const r = sh(["install", await fakeElf(other)]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/wrong architecture: .* is for (x64|arm64), this machine is (x64|arm64)/);
      const junk = sh(["install", script]);
      expect(junk.err).toContain("neither a Pithead executable nor a bundle");
    },
  );

  test("carries systemd/pithead.service unchanged", async () => {
    const text = await readFile(script, "utf8");
    const embedded = /cat >"\$tmp" <<'UNIT'\n([\s\S]*?)\nUNIT\n/.exec(text)?.[1];
    expect(`${embedded}\n`).toBe(await readFile(join(root, "systemd/pithead.service"), "utf8"));
  });
});
