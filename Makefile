# pi-memory. The two commands of the README:
#   make run    build everything and start pi with the extension loaded
#   make test   run every test (what .ci/run calls)
# And to ship it: make package (the pi package, a tarball), make install.
SHELL := /bin/bash
BUILD := build
OUT := $(BUILD)/out
TINYGO_WASM := ts/core.wasm
GO_WASM := $(OUT)/core-go.wasm
# The core's command registry, for pi to register commands from without
# starting the core; written from the built module's registry export.
REGISTRY := ts/registry.json
# The worker thread's script: ts/worker.ts and ts/core.ts as JavaScript (a package
# under node_modules is not one Node strips the types of; ts/tsconfig.worker.json).
WORKER_JS := ts/dist/worker.js
CORE_SRC := $(shell find wasm -name '*.go' -not -name '*_test.go') go.mod go.sum
# A count, not a duration: a -fuzztime duration races the fuzz coordinator at its
# deadline and fails with "context deadline exceeded" (golang/go#75804, fixed in Go 1.27).
FUZZTIME ?= 20000x
# Go minimizes every new interesting input for up to 60 s by default, which stalled
# one target for over a minute at 0 execs/s; a count bounds it.
FUZZMIN ?= 2000x
PREFIX ?= $(HOME)/.local
# The pi package: everything pi needs to run pi-memory, no toolchain (build/package.sh).
VERSION := $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' ts/package.json | head -n 1)
ifeq ($(VERSION),)
$(error cannot read "version" from ts/package.json)
endif
PACKAGE := $(OUT)/pimem-$(VERSION).tgz

.PHONY: all tools hindsight wasm run test test-types test-go test-ts test-e2e test-e2e-compat test-release fuzz bench package install pimem release clean

all: wasm pimem

# Toolchains live in ~/.cache/pi-memory; a second run takes seconds.
tools:
	@$(BUILD)/tinygo.sh >/dev/null
	@$(BUILD)/pi.sh >/dev/null
	@$(BUILD)/ts-deps.sh
	@$(BUILD)/tmux.sh >/dev/null

# The real Hindsight server the end-to-end tests start (docs/hindsight.md): a venv in
# the cache, minutes the first time, a stamp check after. Not in `tools`: only
# test-e2e needs it.
hindsight:
	@$(BUILD)/hindsight.sh install >/dev/null

# The core and what the adapter loads beside it (the worker thread's script).
wasm: $(TINYGO_WASM) $(GO_WASM) $(REGISTRY) $(WORKER_JS)

$(WORKER_JS): ts/worker.ts ts/core.ts ts/tsconfig.worker.json ts/tsconfig.json
	@$(BUILD)/ts-deps.sh
	cd ts && "$$(../$(BUILD)/node.sh)" node_modules/typescript/bin/tsc -p tsconfig.worker.json

$(TINYGO_WASM): $(CORE_SRC) $(BUILD)/wasip1-debian.json $(BUILD)/wasm.sh
	$(BUILD)/wasm.sh tinygo $@

$(GO_WASM): $(CORE_SRC) $(BUILD)/wasm.sh
	$(BUILD)/wasm.sh go $@

$(REGISTRY): $(TINYGO_WASM) $(shell find host -name '*.go' -not -name '*_test.go')
	go run ./host/cmd/pimem --wasm $(TINYGO_WASM) commands --json > $@.tmp
	mv $@.tmp $@

pimem: $(TINYGO_WASM)
	go build -o $(OUT)/pimem ./host/cmd/pimem
	cp $(TINYGO_WASM) $(OUT)/core.wasm

package: $(PACKAGE)

# Prebuilt pimem binaries with the core inside, for people without a Go
# toolchain (decision 014): build/out/release/pimem-<version>-<os>-<arch> and
# SHA256SUMS. test-release builds this machine's one and runs it from an
# empty folder.
release: tools wasm
	$(BUILD)/release.sh

test-release: tools wasm
	$(BUILD)/release.sh --check

$(PACKAGE): $(TINYGO_WASM) $(REGISTRY) $(WORKER_JS) ts/index.ts ts/core.ts ts/README.md ts/package.json ts/package-lock.json $(BUILD)/package.sh
	$(BUILD)/package.sh $@ >/dev/null

# pi with the package this clone builds, named pimem in pi's lists (build/run.sh).
run: tools package
	$(BUILD)/run.sh $(PACKAGE) $(ARGS)

test: tools wasm test-types test-go fuzz test-ts test-e2e test-e2e-compat test-release
	@echo "all tests passed"

# tsc over ts/ (adapter, tests, end-to-end suite, benchmarks) against pi's declarations.
test-types: tools
	"$$($(BUILD)/node.sh)" ts/node_modules/typescript/bin/tsc -p ts

test-go: wasm
	go vet ./...
	go test ./...

# Each fuzz target runs briefly; its seed corpus also runs in test-go.
# `package:target ...`: one go test per target (-fuzz takes one at a time).
FUZZ_TARGETS := \
	wasm/decision:FuzzDecode wasm/decision:FuzzParseConfig wasm/decision:FuzzLoadSnapshot \
	wasm/decision:FuzzWordScans wasm/decision:FuzzMerge wasm/decision:FuzzMergeLogs \
	wasm/decision:FuzzRepair wasm/decision:FuzzRepairLogs wasm/decision:FuzzParseLimit wasm/decision:FuzzSplitTags wasm/decision:FuzzParseVerdicts wasm/decision:FuzzParseQuery wasm/decision:FuzzProposeCommand wasm/config:FuzzNormalize wasm/internal/cmdline:FuzzSplit wasm/redact:FuzzString wasm/redact:FuzzEmbeddedSecret wasm/redact:FuzzMatchers wasm/redact:FuzzHeads wasm/redact:FuzzReadsSecret wasm/internal/jsonw:FuzzString \
	wasm/similarity:FuzzCompare wasm/similarity:FuzzWords host:FuzzParseEnvelope host/cmd/pimem:FuzzWireTake host/cmd/pimem:FuzzTopLevel \
	wasm/notes:FuzzParse wasm/notes:FuzzParseQuery \
	wasm/notes:FuzzDecodeJournal wasm/notes:FuzzDecodeForgotten wasm/notes:FuzzView wasm/notes:FuzzForgetThenRestore wasm/notes:FuzzTwoForgetsRestoredInEitherOrder wasm/notes:FuzzManyForgetsRestoredInAnyOrder wasm/notes:FuzzDecodePageTable wasm/notes:FuzzDecodeTraces wasm/notes:FuzzIgnoresLocal wasm/notes:FuzzCountFlag wasm/notes:FuzzPlanImport \
	wasm/internal/sha1:FuzzSum wasm/internal/jsonr:FuzzGet wasm/internal/jsonr:FuzzValue wasm/internal/jsonr:FuzzEnds wasm/internal/jsonr:FuzzValid wasm/internal/civil:FuzzParseTime \
	wasm/observe:FuzzObserverAnswer wasm/observe:FuzzReflectorAnswer wasm/observe:FuzzDecodeLedger wasm/observe:FuzzReadEntries wasm/observe:FuzzLedgerRecords wasm/observe:FuzzReadContext wasm/observe:FuzzDataText wasm/observe:FuzzLedgerPieces \
	wasm/observe:FuzzModelName wasm/observe:FuzzParseAutoCompact wasm/observe:FuzzParseMode wasm/observe:FuzzParseView wasm/observe:FuzzCheckConfigEdit wasm/internal/pisession:FuzzBranchJSON wasm/internal/jsonl:FuzzLines wasm/internal/jsonl:FuzzReadInPieces \
	wasm/vectors:FuzzParse wasm/embeddings:FuzzParseRecord wasm/hsimport:FuzzParse wasm/hsimport:FuzzDecodeCheckpoint wasm/history:FuzzRead wasm/search:FuzzSearch wasm/search:FuzzParse wasm/search:FuzzWhenOf wasm/search:FuzzAPartGivesBackItsEntries \
	wasm/marker:FuzzStripLeavesNoBlockStart wasm/marker:FuzzWrapEndsOnlyAtItsOwnEnd wasm/marker:FuzzNextIsTheFirstStart wasm/hindsight:FuzzParseRecall wasm/hindsight:FuzzFoldOutbox wasm/hindsight:FuzzFolderEqualsFoldOutbox \
	wasm/registry:FuzzCheckParams wasm/registry:FuzzForShell wasm/hindsight:FuzzRecalls wasm/hindsight:FuzzBranchMode wasm/hindsight:FuzzModeArg wasm/hindsight:FuzzNewestUserMessage wasm/hindsight:FuzzToolTurn wasm/hindsight:FuzzReflectReply wasm/hindsight:FuzzGitDir wasm/hindsight:FuzzImportDir \
	wasm/trust:FuzzEntryIsDirOrAFolderAboveIt wasm/marker:FuzzDataIsIdempotentAndWhatChecksPass

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		echo "go test -run '^$$' -fuzz '^$${t#*:}$$' -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN) ./$${t%%:*}"; \
		go test -run '^$$' -fuzz "^$${t#*:}\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN) "./$${t%%:*}" || exit 1; \
	done

test-ts: tools wasm
	"$$($(BUILD)/node.sh)" --test 'ts/test/*.test.ts'

test-e2e: tools wasm pimem package hindsight
	PI_BIN="$$($(BUILD)/pi.sh)" "$$($(BUILD)/node.sh)" --test 'ts/e2e/*.test.ts'

# The older pi release we support (PI_COMPAT_VERSION in build/env.sh) runs the part of
# the suite that touches each pi API the adapter uses: commands and their output,
# dialogs, the system prompt, tools, the context event, compaction, print mode, install,
# and pi's interactive terminal (tui: completion, the footer, dialogs, a trap).
E2E_COMPAT := command-output decision-add decision-supersede memory observe off print-mode install tui
test-e2e-compat: tools wasm package
	PI_BIN="$$($(BUILD)/pi.sh $$(. $(BUILD)/env.sh && echo $$PI_COMPAT_VERSION))" "$$($(BUILD)/node.sh)" --test $(E2E_COMPAT:%=ts/e2e/%.test.ts)

bench: tools wasm
	$(BUILD)/bench.sh

# Installs the package into your pi from $(PREFIX)/lib/pimem (not from this
# clone, which you may then move or delete), and pimem into $(PREFIX)/bin with the
# package's core.wasm beside it. PI=pi uses your own pi instead of the cached one.
install: tools package pimem
	$(BUILD)/install.sh $(PACKAGE) $(OUT)/pimem $(PREFIX)

clean:
	rm -rf $(OUT) $(TINYGO_WASM) $(REGISTRY)
