#!/bin/sh
# Appliance settings applied to the image tree $1 by image/build.sh (mmdebstrap customize hook).
set -eu
R=$1

echo pithead >"$R/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 pithead\n::1 localhost ip6-localhost ip6-loopback\n' >"$R/etc/hosts"
printf 'LABEL=pithead-root / ext4 errors=remount-ro 0 1\n' >"$R/etc/fstab"

# Network: DHCP on every wired interface; DNS through systemd-resolved (pools are host names).
mkdir -p "$R/etc/systemd/network"
printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=yes\n' >"$R/etc/systemd/network/80-dhcp.network"
chroot "$R" systemctl enable systemd-networkd systemd-resolved >/dev/null 2>&1

# SSH is installed but off; `systemctl enable --now ssh` turns it on.
chroot "$R" systemctl disable ssh >/dev/null 2>&1 || true
rm -f "$R"/etc/ssh/ssh_host_*_key "$R"/etc/ssh/ssh_host_*_key.pub

# The console on port 80 and over HTTPS on 443 (CAP_NET_BIND_SERVICE is in the unit).
mkdir -p "$R/etc/systemd/system/pithead.service.d"
printf '[Service]\nEnvironment=PITHEAD_DEFAULT_WEB_PORT=80\nEnvironment=PITHEAD_HTTPS_PORT=443\n' >"$R/etc/systemd/system/pithead.service.d/image.conf"

# Show the first admin password on the machine's console once the service has made it.
cat >"$R/etc/systemd/system/pithead-first-password.service" <<'UNIT'
[Unit]
Description=Show the first Pithead admin password on the console
After=pithead.service

[Service]
# simple, so that nothing in the boot waits for it
Type=simple
ExecStart=/bin/sh -c 'i=0; while [ ! -s /var/lib/pithead/initial-password ] && [ $i -lt 120 ]; do sleep 1; i=$((i+1)); done; [ -s /var/lib/pithead/initial-password ] && echo "pithead: console on port 80, user admin, first password: $(cat /var/lib/pithead/initial-password)" >/dev/console'

[Install]
WantedBy=multi-user.target
UNIT
chroot "$R" systemctl enable pithead-first-password.service >/dev/null 2>&1
printf 'Pithead appliance \\n - console: http://\\4/ (user admin)\n\n' >"$R/etc/issue"
