# The Rust binding (bindings/rust, crate seq-io): included by the top Makefile.
# generate-rust: its generated modules from generated/binding-model.json (scripts/seq_io_maint/codegen_rust.py).
# binding-rust: drift check → build → unit tests → round-trip of every valid vector → the validator as a validation
# testee (with its expected-failure list) → the starter testee's green run with --fix from an empty list → the
# looseness table → the package consumed from an empty temporary folder. One cargo job, every step under `timeout`,
# everything built under build/rust/ (one release profile, so dependencies compile once for all steps).

RUST_DIR := bindings/rust
RUST_TARGET := $(CURDIR)/build/rust/target
RUST_BIN := $(RUST_TARGET)/release
RUST_ENV := CARGO_TARGET_DIR=$(RUST_TARGET) CARGO_BUILD_JOBS=1

BINDINGS_GENERATE += generate-rust
BINDINGS_CHECK += binding-rust

.PHONY: generate-rust binding-rust

generate-rust: $(STAMP)
	timeout 120 env $(MAINT) seq_io_maint.codegen_rust generate

binding-rust: $(STAMP)
	timeout 120 env $(MAINT) seq_io_maint.codegen_rust check
	cd $(RUST_DIR) && $(RUST_ENV) timeout 1800 nice cargo build --release --locked
	cd $(RUST_DIR) && $(RUST_ENV) timeout 1800 nice cargo test --release --locked
	mkdir -p $(REPORTS)/bindings
	timeout 600 env $(MAINT) seq_io_maint.roundtrip --lang rust --impl "$(RUST_BIN)/seq-io-roundtrip" \
		--report $(REPORTS)/bindings/rust-roundtrip.json
	timeout 900 $(BIN)/iospec run --kind validation --impl "$(RUST_BIN)/seq-io-testee" \
		--xfail $(RUST_DIR)/expected-failures.json --json $(REPORTS)/bindings/rust-validation.json
	tmp=$$(mktemp -d) && echo '{"entries": []}' > $$tmp/expected.json && \
		timeout 900 $(BIN)/iospec run --impl "$(RUST_BIN)/seq-io-testee" --xfail $$tmp/expected.json --fix \
		--json $(REPORTS)/bindings/rust-starter.json \
		> $$tmp/run.log 2>&1; status=$$?; tail -1 $$tmp/run.log; rm -rf $$tmp; exit $$status
	timeout 300 $(RUST_BIN)/seq-io-looseness conformance/vectors.json --check $(RUST_DIR)/looseness.json
	$(RUST_ENV) timeout 1800 bash $(RUST_DIR)/package-check.sh
