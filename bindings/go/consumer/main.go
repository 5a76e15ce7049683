// A consumer of the packaged module: `make binding-go` copies this file into an empty temporary folder, fetches
// seq-io-spec.example/seqio from a file-based proxy and builds it there; it validates one document and round-trips one
// type, and prints the package and contract versions. (In bindings/go it also builds as part of the module.)
//
// WHY: a package is proven by consuming it as a user does, from a module proxy, never through a `replace` directive.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"seq-io-spec.example/seqio"
)

func main() {
	result, err := seqio.Validate("Stream", []byte(`{"at": [0, -2.0, -1]}`))
	if err != nil || !result.Valid {
		fmt.Fprintln(os.Stderr, "validation failed:", err, result.Refusals)
		os.Exit(1)
	}
	var camera seqio.Camera
	if err := json.Unmarshal([]byte(`{"width": 640.0, "height": 480, "codec": null}`), &camera); err != nil {
		fmt.Fprintln(os.Stderr, "decode failed:", err)
		os.Exit(1)
	}
	written, _ := json.Marshal(camera)
	fmt.Printf("seqio %s, contract %s: normalized %s; camera %s\n", seqio.PackageVersion, seqio.ContractVersion,
		seqio.WriteJSON(&result.Normalized), written)
	if string(written) != `{"width":640,"height":480,"codec":null}` {
		os.Exit(1)
	}
}
