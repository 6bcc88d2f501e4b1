# warpscope — the two commands a newcomer needs:
#
#   make serve   build the app into dist/ and serve it on http://127.0.0.1:$(PORT)/
#   make test    formatting, lints, native tests, the papers' claims, the wasm build and the
#                browser tests
#
# Both install whatever is missing first (Debian packages, wasm-bindgen-cli, npm packages) and
# skip everything that is already installed or built. Nothing here reads ../shared.

SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
# Recipes print their own "==>" headings; echoing every shell line would bury them.
.SILENT:

PORT ?= 8080
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
E2E := tests/e2e
WASM_OUT := target/wasm32-unknown-unknown/release
# Debian's rustc-web builds the wasm32 standard library from source (-Zbuild-std): rustup's
# toolchain has no wasm32 std on this offline machine. Native builds use rustup as usual.
WASM_CARGO := RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 \
  CARGO_UNSTABLE_BUILD_STD=std,panic_abort /usr/bin/cargo
APT_BUILD := rustc-web cargo-web rust-web-src rust-web-llvm lld-22 python3
APT_TEST := chromium
WASM_BINDGEN_VERSION = $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)

# Installs the Debian packages $(1) unless all are there already.
define apt_ensure
if ! dpkg -s $(1) >/dev/null 2>&1; then
  echo "==> installing Debian packages: $(1)"
  $(SUDO) apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(1)
fi
endef

.PHONY: help serve test setup setup-test build lint test-native test-reproduction test-browser bench clean

help:
	@echo "make serve   build dist/ and serve it on http://127.0.0.1:$(PORT)/"
	@echo "make test    run every check and test (native and in headless Chromium)"

## Installs what building needs; a no-op (about a second) when everything is there.
setup:
	$(call apt_ensure,$(APT_BUILD))
	if [ "$$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $(WASM_BINDGEN_VERSION)" ]; then
	  echo "==> installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (a few minutes, once)"
	  # Not --locked: its lock file pins a crate version the registry no longer serves.
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)
	fi
	if [ ! $(E2E)/node_modules/.package-lock.json -nt $(E2E)/package-lock.json ]; then
	  echo "==> installing npm packages (playwright-core, binaryen)"
	  (cd $(E2E) && npm ci --no-audit --no-fund --loglevel=error)
	fi

## Release wasm build, wasm-bindgen, wasm-opt, static files -> dist/ (incremental).
build: setup
	echo "==> building the wasm modules (release)"
	$(WASM_CARGO) build --release --target wasm32-unknown-unknown -p warpscope-wasm -p warpscope-frontend
	mkdir -p dist
	for module in warpscope_frontend worker; do
	  if [ ! dist/$${module}_bg.wasm -nt $(WASM_OUT)/$$module.wasm ]; then
	    wasm-bindgen --target web --no-typescript --out-dir dist $(WASM_OUT)/$$module.wasm
	    $(E2E)/node_modules/.bin/wasm-opt -Oz dist/$${module}_bg.wasm -o dist/$${module}_bg.wasm
	  fi
	done
	cp static/* dist/
	ls -l dist/*.wasm | awk '{ printf "    %-28s %7.1f KiB\n", $$9, $$5 / 1024 }'

serve: build
	python3 scripts/serve.py dist --port $(PORT)

## Adds what the browser tests need: Debian's Chromium (playwright-core drives it).
setup-test: setup
	$(call apt_ensure,$(APT_TEST))

lint:
	echo "==> cargo fmt --check, cargo clippy"
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings

test-native:
	echo "==> native tests"
	cargo test --workspace --quiet

## Every paper claim row, run natively in release on every core: fails when a verdict departs
## from its row's status or REPRODUCTION.md is not what the rows generate.
test-reproduction:
	echo "==> the papers' claims (warpscope reproduce --check)"
	cargo run --release --quiet -p warpscope-cli -- reproduce --check >/dev/null
	echo "==> the validation kernels on the H100-like machine (warpscope validate --check)"
	cargo run --release --quiet -p warpscope-cli -- validate --check

test-browser: setup-test build
	echo "==> browser tests (headless Chromium)"
	cargo build --quiet -p warpscope-cli
	cd $(E2E) && node --test --test-concurrency=1

test: setup-test lint test-native test-reproduction test-browser
	echo "==> all tests passed"

## Engine speed, natively and in the browser's worker, how fast the page draws a big run, and
## a gallery card's wall time on one worker and on the pool, large edits in the editor,
## pressing Run in the app against the same run natively, and the worker's memory against the
## native engine's (figures for BENCHMARKS.md).
bench: setup-test build
	echo "==> native"
	cargo run --release --quiet -p warpscope-cli -- bench --repeat 3
	echo "==> native: every library workload on its paper's machine"
	cargo run --release --quiet -p warpscope-cli -- bench --library --repeat 3
	echo "==> browser (headless Chromium, release dist/)"
	node $(E2E)/bench.mjs
	echo "==> rendering in the browser (a run of 102 400 thread blocks)"
	node $(E2E)/render-bench.mjs
	echo "==> a gallery card on one worker and on the pool"
	node $(E2E)/gallery-bench.mjs
	echo "==> large edits in the editor against a bare textarea"
	node $(E2E)/editor-bench.mjs
	echo "==> pressing Run in the app against the same run natively"
	node $(E2E)/app-run-bench.mjs
	echo "==> the worker's memory against the native engine's"
	node $(E2E)/worker-memory-bench.mjs

clean:
	rm -rf dist target $(E2E)/node_modules $(E2E)/artifacts
