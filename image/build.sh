#!/bin/sh
# `make image`: a minimal Debian (bookworm) appliance for ARCH (x64 or arm64) with Pithead installed
# by install.sh, enabled and started at boot, SSH installed but off, console on port 80.
# Built only from Debian packages (mmdebstrap), filled into an ext4 file system with `mke2fs -d`
# (no mounting, no loop device). Output in dist/image-ARCH/:
#   disk.img      bootable GPT disk: UEFI system partition with systemd-boot + root (image/disk.sh);
#                 write it to the machine's disk (dd) or boot it with qemu and OVMF
#   rootfs.ext4   the root file system alone (label pithead-root)
#   vmlinuz, initrd.img   the image's own kernel and initramfs, for a direct kernel boot
set -eu

ARCH=${1:-x64}
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${PITHEAD_IMAGE_SUITE:-bookworm}
MIRROR=${PITHEAD_IMAGE_MIRROR:-http://deb.debian.org/debian}
case "$ARCH" in
  x64) DEB_ARCH=amd64 ;;
  arm64) DEB_ARCH=arm64 ;;
  *) echo "image/build.sh: ARCH must be x64 or arm64" >&2; exit 2 ;;
esac
EXE=${PITHEAD_IMAGE_EXE:-$ROOT_DIR/dist/pithead-linux-$ARCH}
[ -x "$EXE" ] || { echo "image/build.sh: $EXE is missing: run make dist first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "image/build.sh: must run as root (mmdebstrap root mode, chroot)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || { echo "image/build.sh: mmdebstrap missing (apt-get install mmdebstrap)" >&2; exit 1; }

WORK=$ROOT_DIR/.tmp/image/$ARCH
OUT=$ROOT_DIR/dist/image-$ARCH
rm -rf "$WORK/root"
mkdir -p "$WORK" "$OUT"

PACKAGES=systemd,systemd-sysv,systemd-resolved,udev,dbus,linux-image-$DEB_ARCH,initramfs-tools,kmod,systemd-boot-efi
PACKAGES=$PACKAGES,iproute2,openssh-server,passwd,util-linux,ca-certificates,procps,less

# The single-quoted hooks are expanded by mmdebstrap, which passes the tree as $1.
# shellcheck disable=SC2016
mmdebstrap --arch="$DEB_ARCH" --variant=minbase --include="$PACKAGES" \
  --customize-hook="cp '$EXE' \"\$1/tmp/pithead\"" \
  --customize-hook="cp '$ROOT_DIR/image/install.sh' \"\$1/tmp/install.sh\"" \
  --customize-hook='chroot "$1" sh /tmp/install.sh install /tmp/pithead' \
  --customize-hook="sh '$ROOT_DIR/image/customize.sh' \"\$1\"" \
  --customize-hook='rm -f "$1/tmp/pithead" "$1/tmp/install.sh"' \
  "$SUITE" "$WORK/root" "$MIRROR"

cp "$WORK"/root/boot/vmlinuz-* "$OUT/vmlinuz"
cp "$WORK"/root/boot/initrd.img-* "$OUT/initrd.img"
rm -f "$OUT/rootfs.ext4"
mke2fs -q -t ext4 -L pithead-root -d "$WORK/root" "$OUT/rootfs.ext4" 2G
echo "dist/image-$ARCH: rootfs.ext4 $(du -h --apparent-size "$OUT/rootfs.ext4" | cut -f1) (used $(du -h "$OUT/rootfs.ext4" | cut -f1)), vmlinuz, initrd.img"
sh "$ROOT_DIR/image/disk.sh" "$ARCH" "$WORK/root" "$OUT"
