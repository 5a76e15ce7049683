#!/usr/bin/env bash
# The crate as a user gets it: `cargo package` → the .crate unpacked in an EMPTY temporary folder → a consumer crate
# there depending on it by path → it validates one document and round-trips one type → the temp folder is removed.
#
# Why this way: nothing is published; a path dependency on the unpacked .crate uses exactly the files `cargo
# package` ships (so a file missing from the package, e.g. the embedded schemas, fails here). `--no-verify` skips
# cargo's own rebuild of the package, since the consumer build below is that verification. `--allow-dirty`: the check
# judges the working tree as it is, so `make binding-rust` can run before a commit (a fresh clone is clean anyway).
# Env: CARGO_TARGET_DIR (shared with the binding's build, so dependencies compile once), CARGO_BUILD_JOBS.
set -euo pipefail
crate_dir="$(cd "$(dirname "$0")" && pwd)"
target="${CARGO_TARGET_DIR:?set CARGO_TARGET_DIR}"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$crate_dir/Cargo.toml" | head -1)"

(cd "$crate_dir" && cargo package --no-verify --allow-dirty --locked --quiet)
crate_file="$target/package/seq-io-$version.crate"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/vendor" "$work/consumer/src"
tar -xzf "$crate_file" -C "$work/vendor"
cp "$crate_dir/Cargo.lock" "$work/consumer/Cargo.lock"
cat > "$work/consumer/Cargo.toml" <<TOML
[package]
name = "seq-io-consumer"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
seq-io = { path = "../vendor/seq-io-$version" }
TOML
cat > "$work/consumer/src/main.rs" <<'RUST'
use seq_io::codec::Contract;
use seq_io::types::Camera;

fn main() {
    let normalized = seq_io::validate::validate("Stream", br#"{"at": [0, -2.0, -1]}"#).expect("a valid Stream");
    assert_eq!(normalized.to_text(), r#"{"at":[-2.0,-1,0]}"#);
    let refused = seq_io::validate::validate("Stream", br#"{"at": [1]}"#).expect_err("at must be <= 0");
    assert_eq!((refused[0].path.as_str(), refused[0].rule.as_str()), ("$.at[0]", "maximum"));
    let camera = Camera::decode(r#"{"width": 640.0, "height": 480, "codec": null}"#).expect("a Camera");
    assert_eq!(camera.encode(), r#"{"width":640,"height":480,"codec":null}"#);
    println!("seq-io {} (contract {}): validated and round-tripped", seq_io::PACKAGE_VERSION, seq_io::CONTRACT_VERSION);
}
RUST
(cd "$work/consumer" && nice cargo run --release --quiet)
