/**
 * `make image-test`: boots a copy of dist/image-x64/disk.img under qemu-system-x86_64 (software
 * emulation, UEFI firmware from OVMF, the image's own systemd-boot, kernel and initramfs), forwards
 * a free port on 127.0.0.1 to the console (port 80 in the guest), waits for the first password the
 * image prints on its console, logs in, and powers the guest off through ACPI. The arm64 disk image,
 * when `make image` has built it, is booted the same way under qemu-system-aarch64 (virt, AAVMF).
 * Then runs the arm64 executable under qemu-user (with an arm64 libc extracted by mmdebstrap) and
 * logs in to it.
 *
 * The login needs a known captcha answer, so the booted copy of the image (never the built one) gets
 * a drop-in that adds `--test-captcha`, written into the copy with debugfs.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { accessSync, existsSync, constants as fsc } from "node:fs";
import { copyFile, mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { login } from "../test/delivery/login.ts";

setDefaultTimeout(600_000);
const root = join(import.meta.dir, "..");
const CAPTCHA = "4242";
/** How to boot each architecture's disk: emulator, machine options and UEFI firmware (Debian's ovmf, qemu-efi-aarch64). */
const MACHINES = {
  x64: {
    qemu: "qemu-system-x86_64",
    machine: () => [...accel(), "-m", "1024", "-smp", "2"],
    code: "/usr/share/OVMF/OVMF_CODE_4M.fd",
    vars: "/usr/share/OVMF/OVMF_VARS_4M.fd",
  },
  arm64: {
    qemu: "qemu-system-aarch64",
    machine: () => ["-M", "virt", "-cpu", "max", "-m", "1024", "-smp", "2"],
    code: "/usr/share/AAVMF/AAVMF_CODE.fd",
    vars: "/usr/share/AAVMF/AAVMF_VARS.fd",
  },
} as const;
type Arch = keyof typeof MACHINES;

/**
 * Software emulation unless PITHEAD_QEMU_ACCEL=kvm: nested KVM on some hosts (this one) hangs the
 * guest at start. `-cpu max` gives the guest SSE4.2/POPCNT, which Bun's baseline x64 build needs.
 */
function accel(): string[] {
  const want = process.env.PITHEAD_QEMU_ACCEL ?? "tcg";
  if (want === "kvm") accessSync("/dev/kvm", fsc.R_OK | fsc.W_OK);
  return ["-accel", want, "-cpu", want === "kvm" ? "host" : "max"];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

function run(cmd: string[]): string {
  const r = Bun.spawnSync(cmd);
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/**
 * A copy of disk.img whose service starts with a fixed captcha answer: the drop-in is written into a
 * copy of rootfs.ext4 with debugfs, which is then placed over the copy's root partition.
 */
async function testDisk(image: string, dir: string): Promise<string> {
  const rootfs = join(dir, "rootfs.ext4");
  await copyFile(join(image, "rootfs.ext4"), rootfs);
  const dropIn = join(dir, "test.conf");
  await writeFile(
    dropIn,
    `[Service]\nExecStart=\nExecStart=/usr/local/bin/pithead bundle supervise --data-dir /var/lib/pithead -- --test-captcha ${CAPTCHA}\n`,
  );
  run(["debugfs", "-w", "-R", `write ${dropIn} /etc/systemd/system/pithead.service.d/test.conf`, rootfs]);
  const disk = join(dir, "disk.img");
  await copyFile(join(image, "disk.img"), disk);
  const table = JSON.parse(run(["sfdisk", "--json", disk])) as {
    partitiontable: { partitions: { start: number; name?: string }[] };
  };
  const part = table.partitiontable.partitions.find((p) => p.name === "pithead-root");
  if (!part) throw new Error("disk.img has no pithead-root partition");
  run([
    "dd",
    `if=${rootfs}`,
    `of=${disk}`,
    "bs=512",
    `seek=${part.start}`,
    "conv=notrunc,sparse",
    "status=none",
  ]);
  return disk;
}

let qemu: Subprocess<"ignore", "pipe", "inherit"> | null = null;
let serial = "";

/** Resolves with the first match of `re` in the guest's serial console output. */
async function waitSerial(re: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const m = re.exec(serial);
    if (m) return m;
    if (qemu?.exitCode !== null) throw new Error(`qemu exited:\n${serial.slice(-3000)}`);
    await Bun.sleep(250);
  }
}

afterAll(() => {
  if (qemu && qemu.exitCode === null) qemu.kill("SIGKILL");
});

/** Boots a copy of dist/image-<arch>/disk.img, logs in with the printed password, powers it off. */
async function bootAndLogin(arch: Arch): Promise<void> {
  const m0 = MACHINES[arch];
  serial = "";
  const dir = await mkdtemp(join(tmpdir(), "pithead-boot-"));
  const disk = await testDisk(join(root, `dist/image-${arch}`), dir);
  const vars = join(dir, "efi-vars.fd");
  await copyFile(m0.vars, vars);
  const port = await freePort();
  const qmp = join(dir, "qmp.sock");
  qemu = Bun.spawn(
    [
      m0.qemu,
      ...m0.machine(),
      "-drive",
      `if=pflash,format=raw,readonly=on,file=${m0.code}`,
      "-drive",
      `if=pflash,format=raw,file=${vars}`,
      "-drive",
      `file=${disk},format=raw,if=virtio`,
      "-netdev",
      `user,id=n0,hostfwd=tcp:127.0.0.1:${port}-:80`,
      "-device",
      "virtio-net-pci,netdev=n0",
      "-display",
      "none",
      "-serial",
      "stdio",
      "-qmp",
      `unix:${qmp},server=on,wait=off`,
      "-no-reboot",
    ],
    { stdin: "ignore", stdout: "pipe", stderr: "inherit" },
  );
  void (async () => {
    const dec = new TextDecoder();
    for await (const chunk of (qemu as Subprocess<"ignore", "pipe", "inherit">).stdout) {
      serial += dec.decode(chunk, { stream: true });
    }
  })();
  const m = await waitSerial(/first password: (\S+)/);
  const password = m[1] as string;
  const base = `http://127.0.0.1:${port}`;
  // The password is written just before the console listens, and the guest's network comes up
  // in parallel: ask until the forwarded port answers.
  let health: { ok?: boolean } = {};
  while (health.ok !== true) {
    health = await fetch(`${base}/healthz`)
      .then((r) => r.json() as Promise<{ ok?: boolean }>)
      .catch(() => ({}));
    if (health.ok !== true) await Bun.sleep(500);
    if (qemu?.exitCode !== null) throw new Error(`qemu exited:\n${serial.slice(-3000)}`);
  }
  const token = await login(base, password, CAPTCHA);
  expect(token.length).toBeGreaterThan(16);

  // ACPI power button; the guest shuts down and qemu exits (-no-reboot).
  const sock = await Bun.connect({
    unix: qmp,
    socket: { data() {} },
  });
  sock.write('{"execute":"qmp_capabilities"}\n{"execute":"system_powerdown"}\n');
  expect(await qemu.exited).toBe(0);
  sock.end();
  expect(serial).toContain("reboot: Power down");
}

describe("appliance image", () => {
  test("the x64 disk image boots (UEFI, systemd-boot) to a working console", () => bootAndLogin("x64"));

  // Built by `make image` only (about 30 min under emulation); booted when present (about 4 min).
  test.skipIf(!existsSync(join(root, "dist/image-arm64/disk.img")))(
    "the arm64 disk image boots (UEFI, systemd-boot) to a working console",
    () => bootAndLogin("arm64"),
  );

  test("the arm64 executable starts under qemu-user", async () => {
    const sysroot = join(root, ".tmp/image/arm64-libc");
    if (!(await Bun.file(join(sysroot, "lib/ld-linux-aarch64.so.1")).exists())) {
      run(["mmdebstrap", "--arch=arm64", "--variant=extract", "--include=libc6", "bookworm", sysroot]);
    }
    const exe = join(root, "dist/pithead-linux-arm64");
    const out = run(["qemu-aarch64-static", "-L", sysroot, exe, "version"]);
    const pkg = (await Bun.file(join(root, "package.json")).json()) as { version: string };
    expect(out.trim()).toBe(pkg.version);

    // And it serves: start it, wait for its start-up line, log in with its first password.
    const data = await mkdtemp(join(tmpdir(), "pithead-arm64-"));
    const args = [
      "run",
      "--data-dir",
      data,
      "--web-port",
      "0",
      "--host",
      "127.0.0.1",
      "--test-captcha",
      CAPTCHA,
    ];
    const p = Bun.spawn(["qemu-aarch64-static", "-L", sysroot, exe, ...args], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "inherit",
    });
    try {
      const dec = new TextDecoder();
      let seen = "";
      let base: string | undefined;
      for await (const chunk of p.stdout) {
        seen += dec.decode(chunk, { stream: true });
        base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen)?.[1];
        if (base) break;
      }
      if (!base) throw new Error(`arm64 executable exited:\n${seen}`);
      const password = (await Bun.file(join(data, "initial-password")).text()).trim();
      expect((await login(base, password, CAPTCHA)).length).toBeGreaterThan(16);
    } finally {
      p.kill("SIGTERM");
      await p.exited;
    }
  });
});
