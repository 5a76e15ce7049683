#!/bin/sh
# bindings/go (the module) → seqio-pack → a file-based GOPROXY in a temp folder → an EMPTY temp folder with
# consumer/main.go → `go mod init` + `go get seq-io-spec.example/seqio@<PackageVersion>` through that proxy → build
# and run the consumer. Usage: consume-package.sh <build dir holding seqio-pack>. Run from the checkout root.
#
# WHY: this is how a user gets the module (the toolchain's download, checksum and build path); nothing is published.
# The module is exempt from the checksum database only by its own path (GONOSUMDB), every dependency is checked as
# usual, and a module cache of its own under the build folder means a stale copy of the same version never hides a
# change (dependencies come from the usual cache's download folder first, then the configured proxy).
set -eu
build=$1
here=$(pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
version=$("$build/seqio-pack" -version)
"$build/seqio-pack" bindings/go "$work/proxy"
mkdir "$work/consumer"
cp bindings/go/consumer/main.go "$work/consumer/"
usual_cache=$(go env GOMODCACHE)
usual_proxy=$(go env GOPROXY)
cache="$here/$build/consumer-modcache"
rm -rf "$cache/seq-io-spec.example" "$cache/cache/download/seq-io-spec.example"
cd "$work/consumer"
export GOPROXY="file://$work/proxy,file://$usual_cache/cache/download,$usual_proxy"
export GONOSUMDB=seq-io-spec.example GOMODCACHE="$cache" GOFLAGS="-mod=mod -modcacherw -buildvcs=false"
go mod init seqio-consumer >/dev/null 2>&1
go get "seq-io-spec.example/seqio@$version" >/dev/null
go build -p 1 -o consumer .
./consumer
