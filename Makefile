# Every target sets up what it needs: `.venv` is created and filled from pyproject.toml on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup conformance conformance-js js-setup export bump-review release-snapshot test check lint typecheck rules generate \
	generated-check test-all bindings bindings-python bindings-table dist bench bench-runner bench-worker \
	bench-hostile-worker probe report uploader-http fuzz mutation mutation-keeper mutation-uploader mutation-schemas clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

JS := implementations/js
JS_STAMP := $(JS)/node_modules/.installed-stamp
TSGEN := scripts/typescript
TSGEN_STAMP := $(TSGEN)/node_modules/.installed-stamp
## The maintainers' modules (scripts/seq_io_maint) run from the checkout; they never ship.
MAINT := PYTHONPATH=scripts $(BIN)/python -m

$(JS_STAMP): $(JS)/package.json $(JS)/package-lock.json
	cd $(JS) && npm ci --silent --no-audit --no-fund
	touch $(JS_STAMP)

$(TSGEN_STAMP): $(TSGEN)/package.json $(TSGEN)/package-lock.json
	cd $(TSGEN) && npm ci --silent --no-audit --no-fund
	touch $(TSGEN_STAMP)

setup: $(STAMP)

js-setup: $(JS_STAMP) $(TSGEN_STAMP)

REPORTS := reports
## The base of `make bump-review`: empty for the latest release snapshot (spec/releases/, highest version), or a
## folder or a git ref (`make bump-review BASE=origin/main`).
BASE ?=

## The main job: every conformance vector, through the testee protocol, against the Python reference.
conformance: $(STAMP)
	$(BIN)/iospec run --impl "$(BIN)/python -m seq_io.reference.testee" --validate-traffic \
		--junit $(REPORTS)/python/junit.xml --tap $(REPORTS)/python/results.tap --json $(REPORTS)/python/report.json

## The same suite against the clean-room JavaScript implementation (implementations/js): its in-process self-check over
## every vector folder, the keeper's unit self-check (STR-SIZE texts, StreamError bodies) and its differential check
## against a naive transcription of the pseudo-code of spec/stream.md, the uploader's self-check (spec/uploader.md),
## then the runner.
conformance-js: $(STAMP) $(JS_STAMP)
	cd $(JS) && node test/run-vectors.js && node test/keeper-selfcheck.js && node test/keeper-model.js \
		&& node test/uploader-selfcheck.js
	$(BIN)/iospec run --impl "node $(JS)/src/testee.js" --validate-traffic \
		--junit $(REPORTS)/js/junit.xml --tap $(REPORTS)/js/results.tap --json $(REPORTS)/js/report.json

## Rewrite conformance/vectors.json, the JSON bundle of every YAML vector file, and conformance/vectors-index.json.
export: $(STAMP)
	$(BIN)/iospec export

## Review a contract-version bump: BASE (default: the latest release snapshot) against the working tree. The reports
## go to build/ (Markdown, JSON, SARIF, a changelog draft; stale ones deleted first), GitHub annotations to standard
## output when $GITHUB_ACTIONS is true, then ONE line: the verdict and the report paths, or "could not read the
## input". The review's exit code is 0 pass, 1 the gate refuses, 2 unreadable input; make itself exits 2 on both.
BUMP_REPORTS := build/bump-review.md build/bump-review.json build/bump-review.sarif build/changelog-draft.md
bump-review: $(STAMP)
	@mkdir -p build && rm -f $(BUMP_REPORTS) build/bump-review.out
	@$(BIN)/iospec bump-review $(if $(BASE),--base "$(BASE)") --markdown build/bump-review.md \
		--json build/bump-review.json --sarif build/bump-review.sarif --changelog-draft build/changelog-draft.md \
		$(if $(filter true,$(GITHUB_ACTIONS)),--annotations github) > build/bump-review.out; code=$$?; \
	$(if $(filter true,$(GITHUB_ACTIONS)),grep '^::' build/bump-review.out;) \
	case $$code in \
		0) echo "bump review: gate PASS ($(BUMP_REPORTS))";; \
		1) echo "bump review: gate FAIL ($(BUMP_REPORTS))";; \
		*) echo "bump review: could not read the input (the line above says why)";; \
	esac; exit $$code

## Cut spec/releases/<the version of spec/contract.json>/ from the working tree: every file of spec/ but releases/
## and CHANGELOG.md, and every vector kind of conformance/vectors/ with its `$schema` path kept valid
## (spec/compatibility.md, "Release snapshots and the head"). Re-cutting the working tree's own version replaces it.
release-snapshot:
	@v=$$($(PYTHON) -c 'import json; print(json.load(open("spec/contract.json"))["contract_version"])') && \
	rm -rf "spec/releases/$$v" && mkdir -p "spec/releases/$$v" && \
	tar -C spec --exclude=./releases --exclude=./CHANGELOG.md -cf - . | tar -C "spec/releases/$$v" -xf - && \
	cp -R conformance/vectors "spec/releases/$$v/vectors" && \
	sed -i 's#^\$$schema: \.\./\.\./schema/#$$schema: ../../../../../conformance/schema/#' \
		"spec/releases/$$v"/vectors/*/*.yaml && \
	echo "cut spec/releases/$$v"

## The fast tier: no real clock, no package build, no Node.js, nothing marked slow (CONTRIBUTING.md, "Tests").
test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not realclock and not node and not build"

## Every tier: the fast one, then the real-clock, Node.js, build and slow tests.
test-all: $(STAMP) $(JS_STAMP) $(TSGEN_STAMP)
	$(BIN)/python -m pytest

## Everything CI runs: lint, types, vector lint, generated-code drift, every test tier, the conformance suite
## through the runner against both implementations (reports in reports/), the reference uploader over real HTTP,
## the mutation scores of the schemas, the keeper and the uploader, every language binding, and the matrix of them all
## (`make report`, on the reports the steps before it wrote, plus the probe of the reference worker).
check: lint typecheck generated-check test-all conformance conformance-js uploader-http mutation-schemas \
	mutation-keeper mutation-uploader bindings report

lint: $(STAMP)
	$(BIN)/ruff format --check
	$(BIN)/ruff check
	$(BIN)/iospec lint
	$(BIN)/iospec export --check
	$(BIN)/python scripts/gen_stream_vectors.py --check
	$(BIN)/python scripts/gen_uploader_vectors.py --check
	$(BIN)/iospec rules > /dev/null || $(BIN)/iospec rules

## Every normative rule of spec/schedule.md and the number of vector cases that exercise it.
rules: $(STAMP)
	$(BIN)/iospec rules

## mypy on the Python, and tsc --checkJs on the JavaScript implementation against the generated TypeScript types.
typecheck: $(STAMP) $(JS_STAMP)
	$(BIN)/mypy
	cd $(JS) && node_modules/.bin/tsc -p .

## Regenerate generated/ (pydantic models, TypeScript types) and spec/identifier-characters.json; commit the result.
generate: $(STAMP) $(TSGEN_STAMP)
	$(MAINT) seq_io_maint.schema_limits generate
	$(MAINT) seq_io_maint.generate generate
	node $(TSGEN)/generate-types.js
	$(MAINT) seq_io_maint.identifier_table generate
	$(MAINT) seq_io_maint.binding_model generate
	$(if $(BINDINGS_GENERATE),$(MAKE) $(BINDINGS_GENERATE))

## Any byte of drift in generated/ fails; the TypeScript types must compile with tsc --strict.
generated-check: $(STAMP) $(TSGEN_STAMP)
	$(MAINT) seq_io_maint.schema_limits check
	$(MAINT) seq_io_maint.generate check
	node $(TSGEN)/generate-types.js --check
	$(TSGEN)/node_modules/.bin/tsc --ignoreConfig --strict --noEmit --skipLibCheck false generated/ts/contract.d.ts generated/ts/protocol.d.ts
	$(MAINT) seq_io_maint.identifier_table check
	$(MAINT) seq_io_maint.binding_model check

## Both packages into dist/: the wheel and sdist (python -m build), and the npm tarball (npm pack).
dist: $(STAMP) $(JS_STAMP)
	$(BIN)/python -m build --outdir dist .
	cd $(JS) && npm pack --silent --pack-destination ../../dist

## Benchmarks: ratios against baselines measured in the same run (never timed tests).
bench: $(STAMP)
	$(BIN)/python scripts/bench_validation.py
	$(BIN)/python scripts/bench_hostile.py
	$(BIN)/python scripts/bench_schedule.py
	$(BIN)/python scripts/bench_stream.py

## Cases per second through the stdio protocol, for the Python reference and the JavaScript implementation.
bench-runner: $(STAMP) $(JS_STAMP)
	$(BIN)/python scripts/bench_runner.py --impl "node $(JS)/src/testee.js"

## The reference worker under load and faults: frames/s, p50/p99 latency, peak RSS, the ratio to the same server
## answering a no-op handler, and every answer checked against the reference keeper's replay of the same traffic.
bench-worker: $(STAMP)
	$(BIN)/python scripts/bench_worker.py

## The reference worker and the probe against hostile clients (huge and broken bodies, thousands of connections, a
## signal while bodies arrive, malformed HTTP, a full episode table): per attack, the others served, peak RSS
## against the counted bytes, the stall of a robot alongside, unshaped answers, tracebacks, the exit on SIGTERM.
## `--quick` runs the fast subset, `--only NAME` one attack, `--write-docs --label L` writes docs/performance.md.
bench-hostile-worker: $(STAMP)
	$(BIN)/python scripts/bench_hostile_worker.py

## The reference worker started with test keepers, probed with every stream vector over HTTP, then stopped.
probe: $(STAMP)
	$(BIN)/iospec probe --start "$(BIN)/iospec worker --testing --quiet" \
		--junit $(REPORTS)/probe/junit.xml --tap $(REPORTS)/probe/results.tap --json $(REPORTS)/probe/report.json

## One compliance matrix of every implementation this repository ships (docs/report.md): the reports of the
## targets above, each run only when its report is missing (delete reports/ for fresh runs), through `iospec report`
## into reports/matrix/, then the page opened in headless Chromium (counts, console, requests, a screenshot).
MATRIX := $(REPORTS)/matrix
BINDING_LANGS := go rust java cpp
MATRIX_REPORTS := "Python reference=$(REPORTS)/python/report.json" "JavaScript=$(REPORTS)/js/report.json" \
	"reference worker (probe)=$(REPORTS)/probe/report.json" \
	"reference uploader (HTTP)=$(REPORTS)/uploader-http/report.json" \
	$(foreach l,$(BINDING_LANGS),"$(l) validator=$(REPORTS)/bindings/$(l)-validation.json" \
		"$(l) starter=$(REPORTS)/bindings/$(l)-starter.json")
report: $(STAMP)
	@test -f $(REPORTS)/python/report.json || $(MAKE) --no-print-directory conformance
	@test -f $(REPORTS)/js/report.json || $(MAKE) --no-print-directory conformance-js
	@test -f $(REPORTS)/probe/report.json || $(MAKE) --no-print-directory probe
	@test -f $(REPORTS)/uploader-http/report.json || $(MAKE) --no-print-directory uploader-http
	@for l in $(BINDING_LANGS); do \
		test -f $(REPORTS)/bindings/$$l-validation.json -a -f $(REPORTS)/bindings/$$l-starter.json \
			|| $(MAKE) --no-print-directory binding-$$l || exit 1; done
	rm -rf $(MATRIX)
	$(BIN)/iospec report --out $(MATRIX) $(MATRIX_REPORTS)
	timeout 300 env $(MAINT) seq_io_maint.browser_check $(MATRIX)/index.html $(MATRIX_REPORTS) \
		--screenshot $(MATRIX)/screenshot.png --case-screenshot $(MATRIX)/screenshot-case.png

## The reference uploader as an SDK (seq_io.reference.uploader_driver), played every uploader vector over real HTTP by
## iospec uploader-check against a recording worker (conformance/uploader-http.md).
uploader-http: $(STAMP)
	$(BIN)/iospec uploader-check --sdk "$(BIN)/python -m seq_io.reference.uploader_driver" \
		--junit $(REPORTS)/uploader-http/junit.xml --tap $(REPORTS)/uploader-http/results.tap \
		--json $(REPORTS)/uploader-http/report.json

## The schedule differential test against sequence-base 0.4.28, and the stream keeper against its brute-force
## model, with 10,000 examples each.
fuzz: $(STAMP)
	SEQ_IO_FUZZ_EXAMPLES=10000 $(BIN)/python -m pytest -q tests/test_schedule_differential.py tests/test_keeper_property.py

## Mutation scores of src/seq_io/reference/schedule.py and beyond_schema.py against the vectors alone (mutmut).
mutation: $(STAMP)
	$(BIN)/python scripts/mutation.py

## Mutation score of src/seq_io/reference/keeper.py against the stream vectors (and the few keeper tests that reach what
## no vector can: error bodies, a caller's misuse), with its equivalents in scripts/equivalents/keeper.json.
mutation-keeper: $(STAMP)
	$(BIN)/python scripts/mutation.py keeper

## Mutation score of src/seq_io/reference/uploader.py against the uploader vectors, with its equivalents in
## scripts/equivalents/uploader.json.
mutation-uploader: $(STAMP)
	$(BIN)/python scripts/mutation.py uploader

## Mutation score of spec/schemas/*.json against the validation vectors alone (one change per mutant).
mutation-schemas: $(STAMP)
	$(BIN)/python scripts/mutation_schemas.py

## The compiled bindings (Go, Rust, Java, C++): each bindings/<lang>/binding.mk adds `generate-<lang>` (its types
## from generated/binding-model.json) to BINDINGS_GENERATE and `binding-<lang>` (drift check, build, round-trip of
## every valid vector, its validator as a validation testee, its starter testee, its package consumed from an empty
## folder) to BINDINGS_CHECK.
BINDINGS_GENERATE :=
BINDINGS_CHECK :=
include $(sort $(wildcard bindings/*/binding.mk))

## The Python row of the table is measured like the others: the pydantic models through the round-trip checker.
bindings-python: $(STAMP)
	$(MAINT) seq_io_maint.roundtrip --lang python --impl "$(BIN)/python -m seq_io_maint.roundtrip_python" \
		--report $(REPORTS)/bindings/python-roundtrip.json

## Every binding checked, then the README's table compared with what they measured (`bindings-table` rewrites it).
bindings: conformance conformance-js bindings-python $(BINDINGS_CHECK)
	$(MAINT) seq_io_maint.bindings_table check

bindings-table: $(STAMP)
	$(MAINT) seq_io_maint.bindings_table write

clean:
	rm -rf $(VENV) build dist mutants $(REPORTS) .mypy_cache .ruff_cache $(JS)/node_modules $(TSGEN)/node_modules
