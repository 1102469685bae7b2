# make test: everything CI checks, on a fresh Debian 12 machine (installs what is missing).
GO      ?= go
GOBIN   := $(shell $(GO) env GOPATH)/bin
NETNS   := scripts/netns.sh
# Each package's test binary in a network namespace of its own (inside NETNS's): packages
# test in parallel without seeing each other's participants, whatever domains they use.
OWNNET  := -exec '$(CURDIR)/scripts/netns.sh --own'
FUZZTIME ?= 100000x
# Without -trimpath the build cache keys every package of the module by its directory, so
# each clean clone (CI's) compiled the whole module again for each of its nine builds and
# left gigabytes in the cache; with it a second clone of the same code reuses everything.
export GOFLAGS += -trimpath

.PHONY: test deps peers lint portability unit fuzz bench-smoke bench selftest

# The main job: ddsping's self test (discovery and round trips between two participants in
# one process) inside a private network namespace. Built first: the namespace has no network.
selftest:
	$(GO) build -o bin/ddsping ./cmd/ddsping
	$(NETNS) bin/ddsping selftest

# The stages in order, each with the time it took: CI's budget is watched stage by stage.
TEST_STAGES := deps lint peers unit fuzz bench-smoke
test:
	@for t in $(TEST_STAGES); do \
		s=$$(date +%s); $(MAKE) --no-print-directory $$t || exit 1; \
		echo "make test: $$t took $$(( $$(date +%s) - s )) s"; \
	done

deps:
	scripts/deps.sh

# The real peers (Cyclone DDS and Fast DDS programs) the interop tests run.
peers:
	$(MAKE) -C interop

lint: portability
	@out=$$($(GOBIN)/gofumpt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofumpt: $$out"; exit 1; fi
	$(GOBIN)/golangci-lint run ./...
	$(GO) mod tidy -diff

# The library and every test compile for the platforms users build on: vet type-checks the
# tests too, so Linux-only code without a build tag fails here and not on a user's Mac.
# One architecture per system: no file depends on the architecture (no _amd64/_arm64 files
# or tags; all 64-bit), and each vet builds the whole module (about 4 min in CI when the
# module changed); golangci-lint's govet (every analyzer of go vet) covers linux/amd64.
# Add an architecture when a file comes to depend on it.
PLATFORMS := linux/arm64 darwin/arm64 windows/amd64
portability:
	@set -e; for p in $(PLATFORMS); do \
		echo "vet $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./...; \
		if [ -f bench/ecs/go.mod ]; then (cd bench/ecs && GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./...); fi; \
	done

# Every test runs inside a private network namespace, one per package: socket tests reach
# only loopback there.
unit:
	$(NETNS) $(GO) test $(OWNNET) -race -shuffle=on -count=1 -timeout 20m ./...

# Each fuzz target briefly, from its committed corpus.
fuzz:
	@scripts/fuzz.sh $(FUZZTIME)

# Every benchmark once, so none rots.
bench-smoke:
	$(NETNS) $(GO) test $(OWNNET) -run '^$$' -bench . -benchtime 1x ./... >/dev/null
	@if [ -f bench/ecs/go.mod ]; then cd bench/ecs && $(GO) test -run '^$$' -bench . -benchtime 1x ./... >/dev/null; fi

bench:
	$(NETNS) $(GO) test $(OWNNET) -run '^$$' -bench . -benchmem ./...
