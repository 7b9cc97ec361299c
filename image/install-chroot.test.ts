/**
 * `make image-test`: image/install.sh in a throwaway Debian root (an mmdebstrap tree with systemd
 * installed but not running, entered with chroot inside a private mount namespace), never touching
 * the host's services. Install, install again (idempotent), run the service's command as the service
 * user and log in, upgrade with a signed bundle (the executable is built with a throwaway release
 * key), reset the password, status, factory reset (refused without the typed confirmation),
 * uninstall and purge.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFile, lstat, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import pkg from "../package.json" with { type: "json" };
import { login } from "../test/delivery/login.ts";
import { throwawayKeys } from "../test/delivery/ota-fixtures.ts";

setDefaultTimeout(600_000);
const root = join(import.meta.dir, "..");
const tarball = join(root, ".tmp/image/rootfs-chroot.tar");
const next = pkg.version.replace(/(\d+)$/, (n) => String(Number(n) + 1));
let R: string;

function host(cmd: string[], env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(cmd, { cwd: root, env: { ...process.env, ...env } });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout.toString();
}

/** argv for `cmd` run inside the tree, with /proc and /dev only in a private mount namespace. */
function chrootArgv(cmd: string): string[] {
  const script = `mount -t proc proc "${R}/proc" && mount --bind /dev "${R}/dev" && exec chroot "${R}" ${cmd}`;
  return ["unshare", "--mount", "--fork", "--kill-child=SIGTERM", "sh", "-c", script];
}

function inChroot(cmd: string, stdin = ""): { code: number; out: string; err: string } {
  const r = Bun.spawnSync(chrootArgv(cmd), { stdin: new TextEncoder().encode(stdin) });
  return { code: r.exitCode ?? -1, out: r.stdout.toString(), err: r.stderr.toString() };
}

/**
 * Runs the unit's ExecStart as the service user, as systemd would, until `stop`. setpriv execs (no
 * extra process), so the pid the shell prints is the supervisor's, and SIGTERM goes straight to it
 * (unshare --fork ignores SIGTERM itself).
 */
async function startService(): Promise<{ base: string; stop: () => Promise<void> }> {
  const exec = "/usr/local/bin/pithead bundle supervise --data-dir /var/lib/pithead";
  const user = "setpriv --reuid=pithead --regid=pithead --init-groups --";
  const cmd = `${user} ${exec} -- --web-port 0 --host 127.0.0.1 --test-captcha 1234`;
  const argv = chrootArgv(cmd);
  argv[argv.length - 1] = `echo "PID $$" && ${argv[argv.length - 1]}`;
  const p: Subprocess<"ignore", "pipe", "inherit"> = Bun.spawn(argv, {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  const dec = new TextDecoder();
  let seen = "";
  const reader = p.stdout.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`service exited:\n${seen}`);
    seen += dec.decode(value, { stream: true });
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
    const pid = Number(/^PID (\d+)$/m.exec(seen)?.[1]);
    if (m && pid > 0) {
      // Keep draining so the program never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read()).done) {}
      })();
      return {
        base: m[1] as string,
        stop: async () => {
          process.kill(pid, "SIGTERM");
          await p.exited;
        },
      };
    }
  }
}

beforeAll(async () => {
  if (!(await Bun.file(tarball).exists())) {
    host([
      "mmdebstrap",
      "--variant=minbase",
      "--include=systemd,systemd-sysv,passwd,util-linux",
      "bookworm",
      tarball,
    ]);
  }
  R = await mkdtemp(join(tmpdir(), "pithead-chroot-"));
  host(["tar", "-xf", tarball, "-C", R]);
  const keys = throwawayKeys();
  const work = await mkdtemp(join(tmpdir(), "pithead-chroot-build-"));
  await writeFile(join(work, "release.key"), keys.privateKey);
  host([process.execPath, "scripts/dist.ts", "--targets", "x64", "--out", work, "--no-bundle"], {
    PITHEAD_RELEASE_PUBKEY: keys.publicKey,
  });
  const bundle = [process.execPath, "appliance/main.ts", "bundle", "build", "--version", next];
  host([...bundle, "--key", join(work, "release.key"), "--out", join(R, "root/next.bundle")]);
  await copyFile(join(work, "pithead-linux-x64"), join(R, "root/pithead-linux-x64"));
  await copyFile(join(root, "image/install.sh"), join(R, "root/install.sh"));
});

afterAll(async () => {
  if (R) await rm(R, { recursive: true, force: true });
});

describe("install.sh in a Debian chroot", () => {
  test("install, run, upgrade, reset, factory reset, uninstall", async () => {
    const first = inChroot("sh /root/install.sh install /root/pithead-linux-x64");
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out).toContain(`installed pithead ${pkg.version} to /usr/local/bin/pithead`);
    expect(first.out).toContain("systemd is not running here");
    expect((await stat(join(R, "usr/local/bin/pithead"))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(R, "etc/systemd/system/pithead.service"), "utf8")).toBe(
      await readFile(join(root, "systemd/pithead.service"), "utf8"),
    );
    expect(
      (await lstat(join(R, "etc/systemd/system/multi-user.target.wants/pithead.service"))).isSymbolicLink(),
    ).toBe(true);
    expect(inChroot("stat -c %U:%a /var/lib/pithead").out.trim()).toBe("pithead:750");

    const again = inChroot("sh /root/install.sh install /root/pithead-linux-x64");
    expect(again.code).toBe(0);
    expect(again.out).toContain(`pithead ${pkg.version} is already installed`);

    let svc = await startService();
    const password = (await readFile(join(R, "var/lib/pithead/initial-password"), "utf8")).trim();
    expect((await login(svc.base, password, "1234")).length).toBeGreaterThan(16);
    await svc.stop();

    const up = inChroot("sh /root/install.sh upgrade /root/next.bundle");
    expect(up.code).toBe(0);
    expect(up.out).toContain(`switched ${pkg.version} -> ${next}`);
    const reset = inChroot("sh /root/install.sh reset-password");
    expect(reset.code).toBe(0);
    // the output is not a terminal here, so the new password is only in the file
    const newPassword = (await readFile(join(R, "var/lib/pithead/initial-password"), "utf8")).trim();
    expect(reset.out).not.toContain(newPassword);
    expect(newPassword).not.toBe(password);

    svc = await startService();
    expect(await (await fetch(`${svc.base}/healthz`)).json()).toEqual({ ok: true, version: next });
    expect((await login(svc.base, newPassword, "1234")).length).toBeGreaterThan(16);
    await svc.stop();

    const status = inChroot("sh /root/install.sh status");
    expect(status.out).toContain(`program: /usr/local/bin/pithead ${pkg.version}`);
    expect(status.out).toContain(`release: ${next}`);

    const noConfirm = inChroot("sh /root/install.sh factory-reset", "yes\n");
    expect(noConfirm.code).toBe(1);
    expect(noConfirm.err).toContain("not confirmed; nothing was deleted");
    expect(await Bun.file(join(R, "var/lib/pithead/pithead.db")).exists()).toBe(true);
    const wiped = inChroot("sh /root/install.sh factory-reset", "factory-reset\n");
    expect(wiped.code).toBe(0);
    expect(inChroot("ls -A /var/lib/pithead").out.trim()).toBe("");
    expect(await Bun.file(join(R, "usr/local/bin/pithead")).exists()).toBe(true);

    const un = inChroot("sh /root/install.sh uninstall");
    expect(un.code).toBe(0);
    expect(await Bun.file(join(R, "usr/local/bin/pithead")).exists()).toBe(false);
    expect(await Bun.file(join(R, "etc/systemd/system/pithead.service")).exists()).toBe(false);
    expect(inChroot("test -d /var/lib/pithead").code).toBe(0);
    const purge = inChroot("sh /root/install.sh uninstall --purge");
    expect(purge.code).toBe(0);
    expect(inChroot("test -d /var/lib/pithead").code).toBe(1);
    expect(inChroot("getent passwd pithead").code).toBe(2);
  });
});
