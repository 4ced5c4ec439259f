# pi-memory. The two commands of the README:
#   make run    build everything and start pi with the extension loaded
#   make test   run every test (what .ci/run calls)
SHELL := /bin/bash
BUILD := build
OUT := $(BUILD)/out
TINYGO_WASM := ts/core.wasm
GO_WASM := $(OUT)/core-go.wasm
# The core's command registry, for pi to register commands from without
# starting the core; written from the built module's registry export.
REGISTRY := ts/registry.json
CORE_SRC := $(shell find wasm -name '*.go' -not -name '*_test.go') go.mod go.sum
# A count, not a duration: a -fuzztime duration races the fuzz coordinator at its
# deadline and fails with "context deadline exceeded" (golang/go#75804, fixed in Go 1.27).
FUZZTIME ?= 20000x
PREFIX ?= $(HOME)/.local

.PHONY: all tools wasm run test test-go test-ts test-e2e fuzz bench install pimem clean

all: wasm pimem

# Toolchains live in ~/.cache/pi-memory; a second run takes seconds.
tools:
	@$(BUILD)/tinygo.sh >/dev/null
	@$(BUILD)/pi.sh >/dev/null
	@$(BUILD)/ts-deps.sh

wasm: $(TINYGO_WASM) $(GO_WASM) $(REGISTRY)

$(TINYGO_WASM): $(CORE_SRC) $(BUILD)/wasip1-debian.json
	$(BUILD)/wasm.sh tinygo $@

$(GO_WASM): $(CORE_SRC)
	$(BUILD)/wasm.sh go $@

$(REGISTRY): $(TINYGO_WASM) $(shell find host -name '*.go' -not -name '*_test.go')
	go run ./host/cmd/pimem --wasm $(TINYGO_WASM) commands --json > $@.tmp
	mv $@.tmp $@

pimem: $(TINYGO_WASM)
	go build -o $(OUT)/pimem ./host/cmd/pimem
	cp $(TINYGO_WASM) $(OUT)/core.wasm

run: tools wasm
	"$$($(BUILD)/pi.sh)" -e ./ts/index.ts

test: tools wasm test-go fuzz test-ts test-e2e
	@echo "all tests passed"

test-go: wasm
	go vet ./...
	go test ./...

# Each fuzz target runs briefly; its seed corpus also runs in test-go.
fuzz:
	go test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./wasm/decision
	go test -run '^$$' -fuzz '^FuzzParseConfig$$' -fuzztime $(FUZZTIME) ./wasm/decision
	for f in FuzzMerge FuzzMergeLogs FuzzRepair FuzzRepairLogs; do \
		go test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) ./wasm/decision || exit 1; \
	done
	go test -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime $(FUZZTIME) ./wasm/config
	go test -run '^$$' -fuzz '^FuzzSplit$$' -fuzztime $(FUZZTIME) ./wasm/cmdline
	go test -run '^$$' -fuzz '^FuzzString$$' -fuzztime $(FUZZTIME) ./wasm/redact
	go test -run '^$$' -fuzz '^FuzzCompare$$' -fuzztime $(FUZZTIME) ./wasm/similarity
	go test -run '^$$' -fuzz '^FuzzParseEnvelope$$' -fuzztime $(FUZZTIME) ./host
	for f in FuzzParse FuzzParseQuery FuzzDecodeJournal FuzzDecodePageTable FuzzDecodeTraces; do \
		go test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) ./wasm/notes || exit 1; \
	done

test-ts: tools wasm
	"$$($(BUILD)/node.sh)" --test 'ts/test/*.test.ts'

test-e2e: tools wasm
	PI_BIN="$$($(BUILD)/pi.sh)" "$$($(BUILD)/node.sh)" --test 'ts/e2e/*.test.ts'

bench: tools wasm
	$(BUILD)/bench.sh

# Installs the extension into your pi (the package in ts/ carries core.wasm)
# and pimem into $(PREFIX)/bin with its module beside it.
install: tools wasm pimem
	"$$($(BUILD)/pi.sh)" install ./ts
	mkdir -p $(PREFIX)/bin
	cp $(OUT)/pimem $(OUT)/core.wasm $(PREFIX)/bin/

clean:
	rm -rf $(OUT) $(TINYGO_WASM) $(REGISTRY)
