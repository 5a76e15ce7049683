// Examples for the package documentation: JSON text → Validate / Decode<Type> / json.Marshal → printed output,
// checked by `go test` against the `Output:` comments.
//
// WHY: the README's snippets drift unless something compiles and runs them; these are those snippets.
package seqio_test

import (
	"encoding/json"
	"fmt"

	"seq-io-spec.example/seqio"
)

func ExampleValidate() {
	result, _ := seqio.Validate("Stream", []byte(`{"at": [0, -2.0, -1], "every": 1}`))
	for _, r := range result.Refusals {
		fmt.Println(r.Path, r.Rule)
	}
	result, _ = seqio.Validate("Stream", []byte(`{"at": [0, -2.0, -1]}`))
	fmt.Println(result.Valid, string(seqio.WriteJSON(&result.Normalized)))
	// Output:
	// $ Stream.at-xor-every
	// true {"at":[-2.0,-1,0]}
}

func ExampleDecodeDeploymentPolicy() {
	policy, err := seqio.DecodeDeploymentPolicy([]byte(`{"handler_ref": "m:f", "plan_every_s": 0.5, "io": null}`))
	if err != nil {
		panic(err)
	}
	if every, ok := policy.PlanEveryS.Get(); ok {
		fmt.Println("plan every", every.Float64(), "s")
	}
	fmt.Println("io is null:", policy.IO.State == seqio.IsNull, "- streaming absent:", policy.Streaming.State == seqio.Absent)
	text, _ := json.Marshal(policy)
	fmt.Println(string(text))
	// Output:
	// plan every 0.5 s
	// io is null: true - streaming absent: true
	// {"handler_ref":"m:f","io":null,"plan_every_s":0.5}
}
