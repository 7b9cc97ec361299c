#!/bin/sh
# Turns dist/image-ARCH/{rootfs.ext4,vmlinuz,initrd.img} into a bootable GPT disk, disk.img:
#   partition 1: EFI system partition (FAT, 256 MiB) with systemd-boot as the removable-media boot
#                loader (EFI/BOOT/BOOTX64.EFI or BOOTAA64.EFI), the kernel and the initramfs
#   partition 2: the root file system (label pithead-root)
# Built without mounting anything: mkfs.vfat + mtools fill the FAT image, sfdisk writes the table,
# dd places both images. Boots on UEFI machines (x86-64 PCs, arm64 servers, U-Boot boards with EFI).
# The kernel on the ESP is the one of the image build; a kernel update inside the system needs the
# next image or bundle with a runtime (the appliance has no package updates of its own).
set -eu

ARCH=$1
TREE=$2 # the image tree (for the systemd-boot binary)
OUT=$3  # dist/image-ARCH
case "$ARCH" in
  x64) EFI_NAME=BOOTX64.EFI SDBOOT=systemd-bootx64.efi CONSOLE="console=tty0 console=ttyS0" ;;
  arm64) EFI_NAME=BOOTAA64.EFI SDBOOT=systemd-bootaa64.efi CONSOLE="console=tty0 console=ttyAMA0" ;;
  *) echo "image/disk.sh: ARCH must be x64 or arm64" >&2; exit 2 ;;
esac
LOADER=$TREE/usr/lib/systemd/boot/efi/$SDBOOT
[ -f "$LOADER" ] || { echo "image/disk.sh: $LOADER missing (package systemd-boot-efi)" >&2; exit 1; }

ESP_MIB=256
ESP=$OUT/esp.img
rm -f "$ESP"
mkfs.vfat -n PITHEAD-EFI -C "$ESP" $((ESP_MIB * 1024)) >/dev/null
export MTOOLS_SKIP_CHECK=1
mmd -i "$ESP" ::/EFI ::/EFI/BOOT ::/loader ::/loader/entries ::/pithead
mcopy -i "$ESP" "$LOADER" "::/EFI/BOOT/$EFI_NAME"
mcopy -i "$ESP" "$OUT/vmlinuz" ::/pithead/vmlinuz
mcopy -i "$ESP" "$OUT/initrd.img" ::/pithead/initrd.img
tmp=$(mktemp -d)
printf 'default pithead.conf\ntimeout 0\n' >"$tmp/loader.conf"
printf 'title Pithead\nlinux /pithead/vmlinuz\ninitrd /pithead/initrd.img\noptions root=LABEL=pithead-root rw %s\n' \
  "$CONSOLE" >"$tmp/pithead.conf"
mcopy -i "$ESP" "$tmp/loader.conf" ::/loader/loader.conf
mcopy -i "$ESP" "$tmp/pithead.conf" ::/loader/entries/pithead.conf
rm -rf "$tmp"

ROOT_MIB=$(( $(stat -c %s "$OUT/rootfs.ext4") / 1048576 ))
DISK=$OUT/disk.img
rm -f "$DISK"
# 1 MiB for the table, the two partitions, 1 MiB for the backup GPT at the end.
truncate -s $((1 + ESP_MIB + ROOT_MIB + 1))M "$DISK"
sfdisk --quiet "$DISK" <<TABLE
label: gpt
start=1MiB, size=${ESP_MIB}MiB, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name=esp
start=$((1 + ESP_MIB))MiB, size=${ROOT_MIB}MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=pithead-root
TABLE
dd if="$ESP" of="$DISK" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$OUT/rootfs.ext4" of="$DISK" bs=1M seek=$((1 + ESP_MIB)) conv=notrunc,sparse status=none
rm -f "$ESP"
echo "dist/image-$ARCH/disk.img: GPT, UEFI (systemd-boot), $(du -h --apparent-size "$DISK" | cut -f1) (used $(du -h "$DISK" | cut -f1))"
