## The Go binding (bindings/go, module seq-io-spec.example/seqio), included by the top Makefile.
## generate-go: its types and embedded spec data from generated/binding-model.json (scripts/seq_io_maint/codegen_go.py).
## binding-go: generator drift check; build and vet; go test; round-trip of every valid vector; its validator as a
## validation testee (expected failures: bindings/go/expected-failures.json); the starter testee's green run with --fix
## from an empty list; the looseness table; the module consumed from an empty folder through a file-based GOPROXY.
## One job everywhere (the machine is shared), every step bounded by `timeout`, builds under build/go/.
## WHY one target with every step: a binding is only as good as the weakest of these checks, and each is cheap (about
## 15 s warm, 75 s cold); the testee runs check their own traffic against conformance/protocol/ (--validate-traffic).
GO_DIR := bindings/go
GO_BUILD := build/go
GO_RUN := nice env GOMAXPROCS=1 GOFLAGS=-buildvcs=false

BINDINGS_GENERATE += generate-go
BINDINGS_CHECK += binding-go
.PHONY: generate-go binding-go

generate-go: $(STAMP)
	timeout 120 env $(MAINT) seq_io_maint.codegen_go generate

binding-go: $(STAMP)
	timeout 120 env $(MAINT) seq_io_maint.codegen_go check
	mkdir -p $(GO_BUILD) $(REPORTS)/bindings
	cd $(GO_DIR) && timeout 900 $(GO_RUN) go build -p 1 -o ../../$(GO_BUILD)/ ./cmd/... ./consumer
	cd $(GO_DIR) && timeout 600 $(GO_RUN) go vet -p 1 ./...
	cd $(GO_DIR) && test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: the files above are not formatted"; exit 1; }
	cd $(GO_DIR) && timeout 900 $(GO_RUN) go test -p 1 -count=1 ./...
	timeout 400 env $(MAINT) seq_io_maint.roundtrip --lang go --impl $(GO_BUILD)/seqio-roundtrip \
		--report $(REPORTS)/bindings/go-roundtrip.json
	timeout 900 $(BIN)/iospec run --kind validation --impl $(GO_BUILD)/seqio-starter --validate-traffic \
		--xfail $(GO_DIR)/expected-failures.json --json $(REPORTS)/bindings/go-validation.json
	tmp=$$(mktemp -d) && echo '{"entries": []}' > $$tmp/x.json && \
		timeout 900 $(BIN)/iospec run --impl $(GO_BUILD)/seqio-starter --validate-traffic --xfail $$tmp/x.json --fix \
		--json $(REPORTS)/bindings/go-starter.json \
		>$$tmp/log 2>&1; rc=$$?; if [ $$rc -eq 0 ]; then tail -1 $$tmp/log; else cat $$tmp/log; fi; rm -rf $$tmp; exit $$rc
	timeout 120 $(GO_BUILD)/seqio-looseness -check $(GO_DIR)/looseness.json
	timeout 600 env GOMAXPROCS=1 nice $(GO_DIR)/consume-package.sh $(GO_BUILD)
