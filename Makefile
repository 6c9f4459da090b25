# kedit's build and test entry points. `make test` is what CI runs.

GO ?= go
# Link-time version of the embedded API server, so /version says v1.36.3.
LOCALCLUSTER_LDFLAGS := $(shell cat localcluster/ldflags)
TEST_TIMEOUT ?= 30m
# kedit's version for `kedit version`: the git description of the checkout.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)

.PHONY: all build localcluster demo test vet test-root test-localcluster bench clean

all: build

## build: build bin/kedit
build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/kedit .

## localcluster: build bin/localcluster, the real API server for tests and the demo
localcluster:
	$(GO) build -C localcluster -ldflags "$(LOCALCLUSTER_LDFLAGS)" -o ../bin/localcluster .

DEMO_DIR ?= /tmp/kedit-demo

## demo: start a local API server, create configmap testmap and open it in kedit
demo: build localcluster
	@mkdir -p $(DEMO_DIR)
	@rm -f $(DEMO_DIR)/ready.out
	@bin/localcluster --dir $(DEMO_DIR) >$(DEMO_DIR)/ready.out 2>$(DEMO_DIR)/localcluster.err & \
	pid=$$!; trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT INT TERM; \
	echo "starting a local API server in $(DEMO_DIR) ..."; \
	for i in $$(seq 1200); do \
		grep -q '^ready ' $(DEMO_DIR)/ready.out 2>/dev/null && break; \
		kill -0 $$pid 2>/dev/null || { cat $(DEMO_DIR)/localcluster.err; exit 1; }; \
		sleep 0.1; \
	done; \
	grep -q '^ready ' $(DEMO_DIR)/ready.out || { echo "the API server was not ready in 2 minutes"; cat $(DEMO_DIR)/localcluster.err; exit 1; }; \
	export KUBECONFIG=$(DEMO_DIR)/kubeconfig; \
	kubectl get configmap testmap >/dev/null 2>&1 || kubectl create configmap testmap --from-literal=foo=1 --from-literal=bar=1 >/dev/null; \
	echo; echo "kedit opens configmap/testmap. Press e to edit it, then in another terminal be the other writer:"; \
	echo; echo "  KUBECONFIG=$(DEMO_DIR)/kubeconfig kubectl patch configmap testmap --type=merge -p '{\"data\":{\"foo\":\"theirs\"}}'"; \
	echo; echo "and press s to save: kedit shows base, theirs and mine. Press enter to start."; read _; \
	bin/kedit configmap/testmap

## vet: go vet both modules
vet:
	$(GO) vet ./...
	$(GO) vet -C localcluster ./...

## test: vet, the root module's tests with the race detector, and localcluster's own test.
## -count=1: integration tests talk to a server Go's test cache cannot see, so they always run.
test: vet test-root test-localcluster

test-root:
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./...

test-localcluster: localcluster
	LOCALCLUSTER_BIN=$(CURDIR)/bin/localcluster $(GO) test -C localcluster -count=1 -timeout $(TEST_TIMEOUT) ./...

## bench: the benchmarks recorded in BENCHMARKS.md
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./diff/

clean:
	rm -rf bin
