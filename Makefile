# kedit's build and test entry points. `make test` is what CI runs.

GO ?= go
# Link-time version of the embedded API server, so /version says v1.36.3.
LOCALCLUSTER_LDFLAGS := $(shell cat localcluster/ldflags)
TEST_TIMEOUT ?= 30m
# kedit's build tags: kustomize without its Go plugin loader, whose `plugin` package makes the
# linker export every symbol (a binary of 98 MB instead of 63, 27 MiB more of it resident).
KEDIT_TAGS := $(shell cat buildtags)
# kedit's version for `kedit version`: the git description of the checkout.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
# A build that may take minutes says what it builds and how far it is
# (scripts/progress.sh): a first build on a fresh machine is not a hang.
PROGRESS := GO="$(GO)" scripts/progress.sh
LOCALCLUSTER_WHY := kube-apiserver and etcd, compiled from the official Go modules: 5-10 minutes the first time on 2 cores, seconds once Go's build cache holds them
# VictoriaLogs, the log engine the history tests read audit events from: its module and version
# (kube/auditlog/vltest reads the same file).
VICTORIALOGS_PKG := $(shell cat kube/auditlog/vltest/package)

.PHONY: all build localcluster victorialogs demo test vet test-root test-localcluster stress stress-merge bench clean

all: build

## build: build bin/kedit
build:
	$(PROGRESS) kedit build -tags "$(KEDIT_TAGS)" -ldflags "-X main.version=$(VERSION)" -o bin/kedit .

## localcluster: build bin/localcluster, the real API server for tests and the demo
localcluster:
	PROGRESS_WHY="$(LOCALCLUSTER_WHY)" $(PROGRESS) localcluster build -C localcluster -ldflags "$(LOCALCLUSTER_LDFLAGS)" -o ../bin/localcluster .

## victorialogs: build bin/victoria-logs with go install from VictoriaLogs' module at the pinned
## version (about 40 s the first time, seconds once Go's build cache holds it), never a downloaded binary
victorialogs:
	GOBIN=$(CURDIR)/bin $(PROGRESS) victoria-logs install $(VICTORIALOGS_PKG)

## demo: build kedit and localcluster and run `kedit demo`: a local API server in a fresh
## temporary directory, configmaps testmap and nginx-conf, a second writer, and kedit on testmap.
## DEMO_ARGS passes flags and TYPE/NAME, e.g. DEMO_ARGS="--demo-interval 0 configmap/nginx-conf".
demo: build localcluster
	bin/kedit demo $(DEMO_ARGS)

# staticcheck, pinned: `go run` fetches this version once (a fresh machine needs nothing
# installed), and a newer one's new checks never fail a build that passed.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

## vet: go vet both modules, and staticcheck on kedit's (clean: a finding fails it; a finding
## kept on purpose says why with //lint:ignore CHECK reason)
vet:
	$(PROGRESS) "go vet, kedit" vet ./...
	$(PROGRESS) "go vet, localcluster" vet -C localcluster ./...
	$(PROGRESS) "staticcheck, kedit" run $(STATICCHECK) ./...

## test: vet, the root module's tests with the race detector, and localcluster's own test.
## -count=1: integration tests talk to a server Go's test cache cannot see, so they always run.
## bin/localcluster is built once, and every test binary runs it ($LOCALCLUSTER_BIN); so is
## bin/victoria-logs ($VICTORIALOGS_BIN), for the tests that read audit events from VictoriaLogs.
## -vet=off: `make vet` has vetted every package and its tests with all of vet's checks, and go
## test's own subset would analyse every dependency again (minutes on a fresh machine).
## localcluster comes first: vet then finds Kubernetes compiled, and the long compile is the one
## that shows its progress. The race build of kedit's packages shows its own before go test,
## which is silent while it compiles.
test: localcluster victorialogs vet test-root test-localcluster

test-root: localcluster victorialogs
	$(PROGRESS) "kedit's packages, with the race detector" build -race $$($(GO) list -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' ./...)
	LOCALCLUSTER_BIN=$(CURDIR)/bin/localcluster VICTORIALOGS_BIN=$(CURDIR)/bin/victoria-logs $(GO) test -race -vet=off -count=1 -timeout $(TEST_TIMEOUT) ./...

test-localcluster: localcluster
	LOCALCLUSTER_BIN=$(CURDIR)/bin/localcluster $(GO) test -C localcluster -vet=off -count=1 -timeout $(TEST_TIMEOUT) ./...

## stress: many sessions racing on one object, at full size, which `make test` runs small (2 sessions of 20 edits):
## STRESS_SESSIONS sessions of STRESS_EDITS edits each on one ConfigMap, through the engine the
## UI runs, with kubectl patch as one more writer; prints attempts, conflicts, automatic rebases,
## resolutions and lost updates, and writes them to STRESS_REPORT (see RELIABILITY.md). Without
## the race detector, which `make test` runs on the small version: it makes each merge ten times
## slower, and at full size the sessions would mostly measure that.
STRESS_SESSIONS ?= 16
STRESS_EDITS ?= 50
STRESS_REPORT ?= $(CURDIR)/bin/stress.json
# STRESS_SCHEMA_MUTATIONS: the schema check against the server's dry run (`make test` tries 400).
STRESS_SCHEMA_MUTATIONS ?= 20000
# STRESS_RACE_SEEDS: kedit history against the race harness's ground truth (real kubectl verbs on a
# localcluster with its audit log; `make test` plays 4 races and the incidents), from STRESS_RACE_SEED,
# new each run unless given; its confusion table goes to STRESS_RACE_REPORT (see RELIABILITY.md).
STRESS_RACE_SEEDS ?= 300
STRESS_RACE_SEED ?= $(shell date +%s)
STRESS_RACE_REPORT ?= $(CURDIR)/bin/race.md
stress: stress-merge localcluster
	@mkdir -p bin
	KEDIT_STRESS_SESSIONS=$(STRESS_SESSIONS) KEDIT_STRESS_EDITS=$(STRESS_EDITS) KEDIT_STRESS_REPORT=$(STRESS_REPORT) \
		$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^TestStress' -v ./kube
	@cat $(STRESS_REPORT)
	KEDIT_SCHEMA_MUTATIONS=$(STRESS_SCHEMA_MUTATIONS) \
		$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^TestCheckAgreesWithTheServer$$' -v ./kube/schemacheck
	KEDIT_RACE_SEEDS=$(STRESS_RACE_SEEDS) KEDIT_SEED=$(STRESS_RACE_SEED) KEDIT_RACE_REPORT=$(STRESS_RACE_REPORT) \
		LOCALCLUSTER_BIN=$(CURDIR)/bin/localcluster \
		$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^TestHistoryAgainstRealRaces$$' ./e2e
	@cat $(STRESS_RACE_REPORT)

## stress-merge: kedit's line merge against the git on the machine under every git merge-file flag
## (styles, favors, marker sizes, labels), STRESS_MERGE_CASES random cases (`make test` runs 2,000)
## from STRESS_MERGE_SEED, new each run unless given; a failure names its case and seed.
STRESS_MERGE_CASES ?= 40000
STRESS_MERGE_SEED ?= $(shell date +%s)
stress-merge:
	KEDIT_GITFLAGS_CASES=$(STRESS_MERGE_CASES),$(STRESS_MERGE_SEED) \
		$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^TestMerge3TextFlagsMatchGit$$' -v ./diff

## bench: every goal of BENCHMARKS.md beside its peer, with a table of ✔ and ✘ (scripts/bench.sh, under
## 10 minutes; it needs hyperfine, tmux and GNU time, and starts localclusters of its own)
bench:
	scripts/bench.sh

clean:
	rm -rf bin
