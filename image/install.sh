#!/bin/sh
# Pithead install script: install/upgrade, reset-password, factory-reset, uninstall, status.
# POSIX sh; safe to run again (every step checks what is already there).
set -eu

BIN=/usr/local/bin/pithead
DATA=/var/lib/pithead
UNIT=/etc/systemd/system/pithead.service
SVC_USER=pithead

usage() {
  cat <<'USAGE'
usage: install.sh COMMAND [ARGS]

  install FILE        install or upgrade Pithead from a local file: the executable for this
                      machine (pithead-linux-x64 / pithead-linux-arm64) or a signed OTA bundle
                      (*.bundle, needs Pithead installed). Enables and starts the service and
                      prints the first admin password on a new install.
  upgrade FILE        same as install
  reset-password      set a new random admin password and print it
  factory-reset [--confirm factory-reset]
                      wipe all data (ports, settings, logs, password); keeps the program.
                      Asks you to type "factory-reset" unless --confirm gives it.
  uninstall [--purge] remove the service and the program; --purge also removes the data
                      in /var/lib/pithead and the pithead user
  status              show the installed version, the service state and the data directory
  --help              this text

Runs as root on Debian, Ubuntu or Armbian (x86-64 or arm64) with systemd.
USAGE
}

die() {
  echo "install.sh: $*" >&2
  exit 1
}

need_root() {
  [ "$(id -u)" = 0 ] || die "must run as root (try: sudo $0 $*)"
}

need_systemd() {
  command -v systemctl >/dev/null 2>&1 || die "systemd is required (systemctl not found); Pithead runs as a systemd service"
}

# systemd installed but not running: a chroot or an image being built. Files are set up and the
# service enabled; it starts at the next boot.
systemd_running() {
  [ -d /run/systemd/system ]
}

machine_arch() {
  case "$(uname -m)" in
    x86_64 | amd64) echo x64 ;;
    aarch64 | arm64) echo arm64 ;;
    *) die "unsupported architecture $(uname -m): Pithead runs on x86-64 and arm64" ;;
  esac
}

# Architecture of an ELF executable from its e_machine field (bytes 18-19, little endian).
file_arch() {
  magic=$(od -An -tx1 -N4 "$1" | tr -d ' \n')
  [ "$magic" = 7f454c46 ] || { echo none; return; }
  case "$(od -An -tu2 -j18 -N2 "$1" | tr -d ' \n')" in
    62) echo x64 ;;
    183) echo arm64 ;;
    *) echo other ;;
  esac
}

is_bundle() {
  [ "$(head -c 8 "$1" 2>/dev/null)" = PITHEADB ]
}

ensure_user() {
  if ! getent group "$SVC_USER" >/dev/null; then groupadd --system "$SVC_USER"; fi
  if ! getent passwd "$SVC_USER" >/dev/null; then
    useradd --system --gid "$SVC_USER" --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin "$SVC_USER"
  fi
}

ensure_data() {
  mkdir -p "$DATA"
  chown -R "$SVC_USER:$SVC_USER" "$DATA"
  chmod 0750 "$DATA"
}

as_service_user() {
  runuser -u "$SVC_USER" -- "$@"
}

# The unit is systemd/pithead.service, copied here so the script works on its own
# (test/delivery/install-script.test.ts keeps the two identical).
write_unit() {
  tmp="$UNIT.tmp.$$"
  cat >"$tmp" <<'UNIT'
# Pithead stratum proxy appliance. Installed by image/install.sh to /etc/systemd/system/.
#
# The main process is `pithead bundle supervise`: it runs the active release as a child, starts it again
# when it exits with 75 (a restart the program asks for after a web port, HTTPS or secure route
# change), and health-checks a freshly applied OTA update, rolling it back if it is not healthy
# within a minute. If the supervisor itself ends, Restart=always starts everything again.
# Operations guide: docs/operations.md in the source tree.
[Unit]
Description=Pithead stratum proxy appliance
Wants=network-online.target
After=network-online.target
# An appliance keeps trying; never give up after a burst of failures.
StartLimitIntervalSec=0

[Service]
Type=simple
User=pithead
Group=pithead
ExecStart=/usr/local/bin/pithead bundle supervise --data-dir /var/lib/pithead
WorkingDirectory=/var/lib/pithead
Environment=PITHEAD_DATA_DIR=/var/lib/pithead
Restart=always
RestartSec=2
# SIGTERM to the supervisor only; it stops the release child itself, then the rest of the group.
KillMode=mixed
TimeoutStopSec=30

# 100,000 miners need 100,000+ sockets (twice that in Efficient mode, plus upstreams).
LimitNOFILE=1048576
# Ports below 1024 (console on 80/443, stratum on low ports) without running as root.
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE

# Hardening. Not MemoryDenyWriteExecute: the JavaScript JIT needs writable+executable pages.
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
SystemCallArchitectures=native
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK
UMask=0027
StateDirectory=pithead
StateDirectoryMode=0750
ReadWritePaths=/var/lib/pithead

[Install]
WantedBy=multi-user.target
UNIT
  if [ -f "$UNIT" ] && cmp -s "$tmp" "$UNIT"; then rm -f "$tmp"; else mv "$tmp" "$UNIT"; fi
  systemctl daemon-reload 2>/dev/null || true
  systemctl enable pithead.service >/dev/null 2>&1 || systemctl enable pithead.service
}

restart_service() {
  if systemd_running; then
    systemctl restart pithead.service
  else
    echo "systemd is not running here (chroot or image build): the service starts at the next boot"
  fi
}

# After a fresh start the program writes the first password; show it once it is there.
show_password() {
  i=0
  while [ ! -s "$DATA/initial-password" ] && [ $i -lt 30 ] && systemd_running; do
    sleep 1
    i=$((i + 1))
  done
  if [ -s "$DATA/initial-password" ]; then
    echo "admin password: $(cat "$DATA/initial-password")"
  else
    echo "the first admin password will be in $DATA/initial-password after the service starts"
  fi
}

cmd_install() {
  [ $# -eq 1 ] || die "install needs one FILE (see --help)"
  file=$1
  [ -f "$file" ] || die "no such file: $file"
  need_root install "$file"
  need_systemd
  arch=$(machine_arch)
  if is_bundle "$file"; then
    [ -x "$BIN" ] || die "a bundle upgrades an installed Pithead; install the executable first"
    "$BIN" bundle apply --data-dir "$DATA" "$file" || die "the bundle was refused (see the message above); nothing changed"
    ensure_data
    restart_service
    echo "bundle applied; the service checks the new release and rolls back if it is not healthy"
    return
  fi
  fa=$(file_arch "$file")
  case "$fa" in
    "$arch") ;;
    none) die "$file is neither a Pithead executable nor a bundle" ;;
    *) die "wrong architecture: $file is for $fa, this machine is $arch (use pithead-linux-$arch)" ;;
  esac
  version=$("$file" version 2>/dev/null) || die "$file does not run on this machine"
  fresh=yes
  [ -f "$DATA/pithead.db" ] && fresh=no
  ensure_user
  ensure_data
  if [ -f "$BIN" ] && cmp -s "$file" "$BIN"; then
    echo "pithead $version is already installed"
  else
    install -m 0755 "$file" "$BIN.new"
    mv "$BIN.new" "$BIN"
    # A newly installed executable is the active release: an earlier OTA release stays on disk
    # (pithead bundle list) but no longer runs.
    rm -f "$DATA/current" "$DATA/ota/pending.json"
    echo "installed pithead $version to $BIN"
  fi
  write_unit
  restart_service
  if [ "$fresh" = yes ]; then show_password; fi
  echo "console: http://<this machine>:8080 (or the port set in the console)"
}

cmd_reset_password() {
  need_root reset-password
  [ -x "$BIN" ] || die "Pithead is not installed"
  ensure_data
  as_service_user "$BIN" reset-password --data-dir "$DATA"
}

cmd_factory_reset() {
  need_root factory-reset
  [ -x "$BIN" ] || die "Pithead is not installed"
  answer=
  if [ "${1:-}" = --confirm ]; then
    answer=${2:-}
  else
    printf 'This deletes every port, wallet, setting, log and the admin password in %s.\n' "$DATA"
    printf 'Type "factory-reset" to continue: '
    read -r answer || answer=
  fi
  [ "$answer" = factory-reset ] || die "not confirmed; nothing was deleted"
  if systemd_running; then systemctl stop pithead.service; fi
  find "$DATA" -mindepth 1 -delete
  ensure_data
  echo "all data wiped"
  restart_service
  show_password
}

cmd_uninstall() {
  need_root uninstall
  need_systemd
  purge=no
  [ "${1:-}" = --purge ] && purge=yes
  if systemd_running; then systemctl stop pithead.service 2>/dev/null || true; fi
  systemctl disable pithead.service >/dev/null 2>&1 || true
  rm -f "$UNIT" "$BIN"
  systemctl daemon-reload 2>/dev/null || true
  if [ "$purge" = yes ]; then
    rm -rf "$DATA"
    if getent passwd "$SVC_USER" >/dev/null; then userdel "$SVC_USER"; fi
    if getent group "$SVC_USER" >/dev/null; then groupdel "$SVC_USER"; fi
    echo "Pithead and its data removed"
  else
    echo "Pithead removed; data kept in $DATA (uninstall --purge removes it)"
  fi
}

cmd_status() {
  if [ -x "$BIN" ]; then echo "program: $BIN $("$BIN" version 2>/dev/null || echo '(does not run)')"; else echo "program: not installed"; fi
  if [ -f "$UNIT" ]; then
    state=unknown
    if systemd_running; then state=$(systemctl is-active pithead.service 2>/dev/null || true); fi
    echo "service: $(systemctl is-enabled pithead.service 2>/dev/null || echo disabled), $state"
  else
    echo "service: not installed"
  fi
  if [ -d "$DATA" ]; then
    release=built-in
    [ -L "$DATA/current" ] && release=$(basename "$(readlink "$DATA/current")")
    echo "data: $DATA (release: $release)"
    [ -s "$DATA/initial-password" ] && echo "first password not changed yet: see $DATA/initial-password"
  else
    echo "data: none"
  fi
  return 0
}

main() {
  [ $# -ge 1 ] || { usage >&2; exit 2; }
  cmd=$1
  shift
  case "$cmd" in
    -h | --help | help) usage ;;
    install | upgrade) cmd_install "$@" ;;
    reset-password) cmd_reset_password "$@" ;;
    factory-reset) cmd_factory_reset "$@" ;;
    uninstall) cmd_uninstall "$@" ;;
    status) cmd_status "$@" ;;
    *) echo "install.sh: unknown command $cmd" >&2; usage >&2; exit 2 ;;
  esac
}

main "$@"
