## The C++ binding (bindings/cpp), included by the top Makefile: generated/binding-model.json → generated/cpp
## (scripts/seq_io_maint/codegen_cpp.py) → CMake build under build/cpp → unit tests, round-trip, validation testee,
## starter green run, looseness table, package consumed from an empty folder. Every step has a time bound; builds
## use one job (the machine's cores are shared) and nothing is left running.
BINDINGS_GENERATE += generate-cpp
BINDINGS_CHECK += binding-cpp

CPP_BUILD := build/cpp
CPP_SRC := bindings/cpp

.PHONY: generate-cpp binding-cpp cpp-build cpp-package

## Regenerate generated/cpp from generated/binding-model.json.
generate-cpp: $(STAMP)
	$(MAINT) seq_io_maint.codegen_cpp generate

cpp-build: $(STAMP)
	timeout 120 env $(MAINT) seq_io_maint.codegen_cpp check
	timeout 300 cmake -G Ninja -S $(CPP_SRC) -B $(CPP_BUILD) -DCMAKE_BUILD_TYPE=Release > /dev/null
	timeout 1800 nice cmake --build $(CPP_BUILD) -j 1

## The installed package (cmake --install into a temporary prefix) used by a consumer built in an empty folder,
## and the starter testee built from the package's own copy of it.
cpp-package: cpp-build
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	timeout 300 cmake --install $(CPP_BUILD) --prefix "$$tmp/prefix" > /dev/null && \
	mkdir "$$tmp/consumer" && cp $(CPP_SRC)/consumer/CMakeLists.txt $(CPP_SRC)/consumer/main.cpp "$$tmp/consumer/" && \
	timeout 300 cmake -G Ninja -S "$$tmp/consumer" -B "$$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$$tmp/prefix" && \
	timeout 600 nice cmake --build "$$tmp/consumer/build" -j 1 && \
	timeout 60 "$$tmp/consumer/build/consumer" && \
	cp -r "$$tmp/prefix/share/SeqIo/starter" "$$tmp/starter" && \
	timeout 300 cmake -G Ninja -S "$$tmp/starter" -B "$$tmp/starter/build" -DCMAKE_PREFIX_PATH="$$tmp/prefix" > /dev/null && \
	timeout 600 nice cmake --build "$$tmp/starter/build" -j 1 && \
	printf '%s\n' '{"type":"hello","protocol":1,"contract_version":"0.5.25"}' | timeout 30 "$$tmp/starter/build/testee" | grep -q '"kinds"'

## Drift check, build, unit tests, round-trip, validation testee, starter green with --fix, looseness, package.
binding-cpp: cpp-build
	cd $(CPP_BUILD) && timeout 300 ctest --output-on-failure
	mkdir -p $(REPORTS)/bindings
	timeout 600 env $(MAINT) seq_io_maint.roundtrip --lang cpp --impl $(CPP_BUILD)/seqio-roundtrip \
		--report $(REPORTS)/bindings/cpp-roundtrip.json
	timeout 900 $(BIN)/iospec run --kind validation --impl $(CPP_BUILD)/seqio-testee \
		--xfail $(CPP_SRC)/expected-failures.json --json $(REPORTS)/bindings/cpp-validation.json
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && echo '{"entries": []}' > "$$tmp/x.json" && \
	timeout 1800 $(BIN)/iospec run --impl $(CPP_BUILD)/seqio-testee --xfail "$$tmp/x.json" --fix \
		--json $(REPORTS)/bindings/cpp-starter.json > "$$tmp/log" 2>&1 \
		|| { tail -40 "$$tmp/log"; exit 1; }
	timeout 120 $(CPP_BUILD)/seqio-looseness conformance/vectors.json | cmp - $(CPP_SRC)/looseness.json \
		|| { echo "bindings/cpp/looseness.json is stale: rebuild and run $(CPP_BUILD)/seqio-looseness conformance/vectors.json"; exit 1; }
	$(MAKE) --no-print-directory cpp-package
