# Vignette — the two commands README promises: `make demo` and `make test`.
SWIFT ?= swift
# Parallel build jobs; the CI machines have 2 cores.
JOBS ?= $(shell nproc)

.PHONY: all demo test build release deps test-deps install image-check serve-bench lint format consumer-check fuzz fuzz-smoke clean

PREFIX ?= /usr/local

all: build

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

build: deps
	$(SWIFT) build -j $(JOBS)

# The Swift runtime and Foundation linked into the binary: no libswift*.so to load and bind at
# every start (bench/startup.sh); nor are all its symbols exported (see scripts/install.sh); nor
# is libdbus-1 linked, which the D-Bus thumbnailer opens itself (scripts/release-pkg-config.sh).
# scripts/install.sh and the Dockerfile build the same way.
release: deps
	PKG_CONFIG_PATH=$$(scripts/release-pkg-config.sh) $(SWIFT) build -c release --static-swift-stdlib -Xlinker --no-export-dynamic -j $(JOBS)

## demo: install what is missing, build, run the main job on Samples/ and print where the output is.
demo: release
	@scripts/demo.sh

## test: build and run the whole test suite (unit, CLI through the real binary), the C checks, the consumer check and the fuzz smoke.
test: test-deps
	$(SWIFT) build -j $(JOBS)
	$(SWIFT) test -j $(JOBS)
	@scripts/c-checks.sh
	@scripts/consumer-check.sh
	@scripts/fuzz.sh --smoke --jobs $(JOBS)

## fuzz: every libFuzzer harness, 10 minutes per group (FUZZ_ARGS="--seconds 60 jpeg" to choose; see scripts/fuzz.sh --help).
FUZZ_ARGS ?=
fuzz: test-deps
	@scripts/fuzz.sh --jobs $(JOBS) $(FUZZ_ARGS)

## fuzz-smoke: each harness for a few seconds from its seeds (part of make test).
fuzz-smoke: test-deps
	@scripts/fuzz.sh --smoke --jobs $(JOBS)

## install: release build into $(PREFIX)/bin with data in $(PREFIX)/share/vignette (the Dockerfile runs the same script).
install: deps
	@scripts/install.sh $(PREFIX)

## image-check: the Dockerfile's build and runtime steps without Docker (install to a temp prefix, serve, healthcheck, SIGTERM).
image-check: deps
	@scripts/image-check.sh

## serve-bench: load test of `vignette serve` with wrk, nginx as the ceiling (see bench/serve.sh).
serve-bench: deps
	@bench/serve.sh

## consumer-check: build and run Examples/ThumbnailSize against a tagged clone of this repository, by version.
consumer-check:
	@scripts/consumer-check.sh

## lint: swift-format in strict mode over Sources, Tests and Package.swift, with the committed .swift-format (CI runs it).
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift

## format: rewrite Sources, Tests and Package.swift in the committed style (then `make lint` passes).
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Package.swift

clean:
	rm -rf .build .build-fuzz out
