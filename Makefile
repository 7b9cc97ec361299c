# Pithead: `make run` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
BUN := node_modules/.bin/bun
DATA ?= ./data
# WEB_PORT=N overrides the stored web port (8080 until changed in the console)
WEB_PORT ?=

.PHONY: run test lint unit e2e ui dist bench soak install chromium testlibs clean image image-test

# `npm install` rather than `npm ci`: this npm writes the lockfile with only the Linux builds of
# platform packages (Biome's) and `npm ci` then calls it out of sync. The lockfile still pins every version.
node_modules/.installed: package.json package-lock.json
	npm install --no-audit --no-fund --loglevel=error
	touch $@

install: node_modules/.installed

chromium:
	@command -v chromium >/dev/null && dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null; }

# Real components the tests verify against (RandomX through bun:ffi; a Prometheus server that scrapes
# /api/metrics; litecoind in regtest for the pool node), from Debian like chromium. Without recommends:
# node-exporter is not needed.
TEST_LIBS := librandomx0 prometheus litecoind
testlibs:
	@dpkg -s $(TEST_LIBS) >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(TEST_LIBS) >/dev/null; }

ui: install
	$(BUN) ui/build.ts

run: install ui
	$(BUN) appliance/main.ts run --data-dir $(DATA) $(if $(WEB_PORT),--web-port $(WEB_PORT),)

lint: install
	node_modules/.bin/biome check .
	node_modules/.bin/tsc --noEmit -p .

unit: install ui testlibs
	$(BUN) test --timeout 120000 test/unit test/integration test/engine test/delivery

e2e: install ui chromium
	$(BUN) test --timeout 120000 test/e2e

test: lint unit e2e

dist: install ui
	$(BUN) scripts/dist.ts

bench: install ui testlibs
	$(BUN) bench/run.ts

# Soak (not part of `make test`): MINERS fake miners churning for MINUTES, sampled every EVERY seconds;
# CSV and PNG plot in bench/out/ (docs/benchmarks.md, "Soak").
MINERS ?= 100
MINUTES ?= 60
EVERY ?= 60
soak: install
	$(BUN) bench/soak/index.ts --miners $(MINERS) --minutes $(MINUTES) --every $(EVERY) --out bench/out

# Appliance images (root, Debian packages only); see docs/operations.md. arm64 is built under
# qemu-user (binfmt_misc) and takes about 30 minutes.
IMAGE_TOOLS := mmdebstrap qemu-user-static binfmt-support e2fsprogs dosfstools mtools fdisk
image: dist
	@command -v mmdebstrap >/dev/null && command -v qemu-aarch64-static >/dev/null && command -v mcopy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(IMAGE_TOOLS) >/dev/null; }
	image/build.sh x64
	image/build.sh arm64

# Boots the x64 disk image (UEFI) under qemu, logs in, powers off; runs the arm64 executable under qemu-user;
# installs/upgrades/resets/uninstalls in a Debian chroot. Several minutes; not part of `make test`.
image-test: dist
	@command -v qemu-system-x86_64 >/dev/null && command -v mmdebstrap >/dev/null && command -v mcopy >/dev/null && command -v qemu-system-aarch64 >/dev/null && [ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] && [ -f /usr/share/AAVMF/AAVMF_CODE.fd ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(IMAGE_TOOLS) qemu-system-x86 qemu-system-arm ovmf qemu-efi-aarch64 >/dev/null; }
	[ -f dist/image-x64/disk.img ] && [ dist/image-x64/disk.img -nt dist/pithead-linux-x64 ] || image/build.sh x64
	$(BUN) test --timeout 900000 image/

clean:
	rm -rf dist ui/dist node_modules/.installed
