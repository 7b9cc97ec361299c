# Pithead: `make run` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
BUN := node_modules/.bin/bun
DATA ?= ./data
# WEB_PORT=N overrides the stored web port (8080 until changed in the console)
WEB_PORT ?=

.PHONY: run test lint unit e2e ui dist bench install chromium clean image image-test

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: node_modules/.installed

chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

ui: install
	$(BUN) ui/build.ts

run: install ui
	$(BUN) appliance/main.ts run --data-dir $(DATA) $(if $(WEB_PORT),--web-port $(WEB_PORT),)

lint: install
	node_modules/.bin/biome check .
	node_modules/.bin/tsc --noEmit -p .

unit: install ui
	$(BUN) test --timeout 120000 test/unit test/integration test/engine test/delivery

e2e: install ui chromium
	$(BUN) test --timeout 120000 test/e2e

test: lint unit e2e

dist: install ui
	$(BUN) scripts/dist.ts

bench: install ui
	$(BUN) bench/run.ts

clean:
	rm -rf dist ui/dist node_modules/.installed
