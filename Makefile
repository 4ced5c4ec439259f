# pi-memory. `make run` starts pi with the extension; `make test` runs every test.
SHELL := /bin/bash
BUILD := build
OUT := $(BUILD)/out
TINYGO_WASM := ts/core.wasm
GO_WASM := $(OUT)/core-go.wasm
CORE_SRC := $(shell find wasm -name '*.go' -not -name '*_test.go') go.mod go.sum

.PHONY: all wasm run test test-go test-wasm test-ts test-e2e fuzz bench install tools clean

all: wasm

wasm: $(TINYGO_WASM) $(GO_WASM)

$(TINYGO_WASM): $(CORE_SRC) $(BUILD)/wasip1-debian.json
	$(BUILD)/wasm.sh tinygo $@

$(GO_WASM): $(CORE_SRC)
	$(BUILD)/wasm.sh go $@

clean:
	rm -rf $(OUT) $(TINYGO_WASM)
