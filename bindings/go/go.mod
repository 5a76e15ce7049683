// The Go module of the binding (bindings/go/README.md): exact versions here, hashes in go.sum.
// WHY these floors: regexp2 v2 needs Go 1.25; x/text is the oldest the JSON Schema engine allows.
module seq-io-spec.example/seqio

go 1.25

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/text v0.14.0
)
