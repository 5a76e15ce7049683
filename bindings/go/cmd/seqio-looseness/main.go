// conformance/vectors.json → every invalid validation case decoded by the generated types alone (the wire rules of
// UnmarshalJSON included, the validator not) → per rule id: how many of its vectors the types refuse → the
// looseness table (bindings/go/looseness.json), written with -write or compared with -check.
//
// WHY it is shaped this way: the generated types are the typed result of validation, not a validator; an SDK author
// must know which rules they hold on their own. Computing the table from the vectors (never by hand) and failing
// when it changes keeps the README's table true as vectors and types evolve.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	"seq-io-spec.example/seqio"
)

// ruleCount is one row of the table: the invalid vectors expecting the rule, and how many the types refuse.
type ruleCount struct {
	vectors, refusedByTypes int
}

func main() {
	vectors := flag.String("vectors", "conformance/vectors.json", "the conformance vector bundle")
	write := flag.String("write", "", "write the table to this file")
	check := flag.String("check", "", "fail when this file differs from the computed table")
	flag.Parse()
	table, err := computeTable(*vectors)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seqio-looseness:", err)
		os.Exit(2)
	}
	text := render(table)
	switch {
	case *write != "":
		if err := os.WriteFile(*write, text, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "seqio-looseness:", err)
			os.Exit(2)
		}
	case *check != "":
		old, err := os.ReadFile(*check)
		if err != nil || !bytes.Equal(old, text) {
			fmt.Fprintf(os.Stderr, "seqio-looseness: %s differs from the table computed over %s; "+
				"after checking the change, write it again with -write\n", *check, *vectors)
			os.Exit(1)
		}
	default:
		os.Stdout.Write(text)
	}
}

// bundle is the part of conformance/vectors.json read here; instances stay raw text (encoding/json only splits
// the bundle, the binding's reader reads each instance).
type bundle struct {
	Files []struct {
		Document struct {
			Kind   string `json:"kind"`
			Type   string `json:"type"`
			Groups []struct {
				Cases []struct {
					Valid    bool                  `json:"valid"`
					Error    struct{ Rule string } `json:"error"`
					JSON     *string               `json:"json"`
					Instance json.RawMessage       `json:"instance"`
				} `json:"cases"`
			} `json:"groups"`
		} `json:"document"`
	} `json:"files"`
}

func computeTable(path string) (map[string]*ruleCount, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var vectors bundle
	if err := json.Unmarshal(data, &vectors); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	table := map[string]*ruleCount{}
	for _, file := range vectors.Files {
		if file.Document.Kind != "validation" {
			continue
		}
		for _, group := range file.Document.Groups {
			for _, vector := range group.Cases {
				if vector.Valid {
					continue
				}
				text := []byte(vector.Instance)
				if vector.JSON != nil {
					text = []byte(*vector.JSON)
				}
				row := table[vector.Error.Rule]
				if row == nil {
					row = &ruleCount{}
					table[vector.Error.Rule] = row
				}
				row.vectors++
				if refusedByTypes(file.Document.Type, text) {
					row.refusedByTypes++
				}
			}
		}
	}
	return table, nil
}

// refusedByTypes decodes the text into the named generated type: the reader's wire rules, then the type's decoder.
func refusedByTypes(typeName string, text []byte) bool {
	value, refusals := seqio.ReadJSON(text)
	if len(refusals) > 0 {
		return true
	}
	_, err := seqio.RoundTrip(typeName, &value)
	return err != nil
}

// render writes the table as stable JSON: each rule id with its counts and its verdict.
func render(table map[string]*ruleCount) []byte {
	rules := make([]string, 0, len(table))
	for rule := range table {
		rules = append(rules, rule)
	}
	sort.Strings(rules)
	var b bytes.Buffer
	b.WriteString("{\n \"description\": \"Per rule id of the invalid validation vectors: how many the Go binding's generated types " +
		"refuse on decode alone (wire rules included, validator not). Computed by bindings/go/cmd/seqio-looseness; do not edit.\",\n")
	b.WriteString(" \"rules\": {\n")
	for i, rule := range rules {
		row := table[rule]
		comma := ","
		if i == len(rules)-1 {
			comma = ""
		}
		fmt.Fprintf(&b, "  %s: {\"vectors\": %d, \"refused_by_types\": %d, \"held_by\": %q}%s\n",
			seqio.JSONString(rule), row.vectors, row.refusedByTypes, verdict(row), comma)
	}
	b.WriteString(" }\n}\n")
	return b.Bytes()
}

func verdict(row *ruleCount) string {
	switch row.refusedByTypes {
	case row.vectors:
		return "types"
	case 0:
		return "validator only"
	}
	return "types in part"
}
