module seq-io-spec.example/seqio

go 1.26.0

require (
	github.com/dlclark/regexp2/v2 v2.13.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/text v0.44.0
)
