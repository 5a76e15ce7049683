# The Java binding's make targets, included by the top Makefile (its "compiled bindings" section).
# generate-java: generated/binding-model.json → scripts/seq_io_maint/codegen_java.py → generated/java/.
# binding-java: drift check → Maven build + JUnit tests (build/java/) → round-trip of every valid vector →
# the starter testee as a validation testee against bindings/java/expected-failures.json → the starter's green
# run with --fix from an empty list → the looseness table check → the artifact deployed into a temporary file
# repository and consumed from an empty temporary folder.
# WHY one recipe: each step needs the build before it; every step has a time bound and leaves nothing running.

BINDINGS_GENERATE += generate-java
BINDINGS_CHECK += binding-java
.PHONY: generate-java binding-java

JAVA_POM := generated/java/pom.xml
JAVA_BUILD := build/java
JAVA_RUN := bindings/java/bin/seq-io-java
JAVA_MVN := nice mvn -B -T1 --no-transfer-progress
JAVA_VERSION = $(shell $(BIN)/python -c 'import json; print(json.load(open("generated/binding-model.json"))["package_version"])')
JAVA_LOCAL_REPO := $(HOME)/.m2/repository

generate-java: $(STAMP)
	$(MAINT) seq_io_maint.codegen_java generate

binding-java: $(STAMP)
	$(MAINT) seq_io_maint.codegen_java check
	timeout 1200 $(JAVA_MVN) -f $(JAVA_POM) package
	timeout 300 $(JAVA_MVN) -q -f $(JAVA_POM) dependency:build-classpath -Dmdep.includeScope=runtime \
		-Dmdep.outputFile=$(CURDIR)/$(JAVA_BUILD)/runtime-classpath.txt
	mkdir -p $(REPORTS)/bindings
	timeout 600 env $(MAINT) seq_io_maint.roundtrip --lang java --impl "$(JAVA_RUN) roundtrip" \
		--report $(REPORTS)/bindings/java-roundtrip.json
	timeout 900 $(BIN)/iospec run --kind validation --impl "$(JAVA_RUN) testee" \
		--xfail bindings/java/expected-failures.json --json $(REPORTS)/bindings/java-validation.json
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && echo '{"entries": []}' > "$$tmp/x.json" && \
		timeout 900 $(BIN)/iospec run --impl "$(JAVA_RUN) testee" --xfail "$$tmp/x.json" --fix \
			--json $(REPORTS)/bindings/java-starter.json > "$$tmp/run.txt" \
		|| { cat "$$tmp/run.txt"; exit 1; }; tail -n 1 "$$tmp/run.txt"
	timeout 300 $(JAVA_RUN) looseness conformance/vectors.json --check bindings/java/looseness.json
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"; rm -rf "$(JAVA_LOCAL_REPO)/example/seqio"' EXIT && \
		rm -rf "$(JAVA_LOCAL_REPO)/example/seqio" && \
		timeout 300 $(JAVA_MVN) -q -f $(JAVA_POM) deploy:deploy-file -Dfile=$(CURDIR)/$(JAVA_BUILD)/target/seq-io-$(JAVA_VERSION).jar \
			-DpomFile=$(CURDIR)/$(JAVA_POM) -Durl=file://$$tmp/repo -DrepositoryId=seq-io-temporary && \
		mkdir "$$tmp/consumer" && cp -R bindings/java/consumer/. "$$tmp/consumer/" && \
		sed -i -e "s|@VERSION@|$(JAVA_VERSION)|" -e "s|@REPO@|file://$$tmp/repo|" "$$tmp/consumer/pom.xml" && \
		cd "$$tmp/consumer" && timeout 600 $(JAVA_MVN) -q compile dependency:build-classpath \
			-Dmdep.outputFile=cp.txt && \
		timeout 120 java -Dslf4j.internal.verbosity=ERROR -cp "target/classes:$$(cat cp.txt)" consumer.Main
