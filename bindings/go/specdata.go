// The spec's data files, embedded: embedded/contract.json (limits), embedded/identifier-characters.json
// (XID_Start/XID_Continue of Unicode 14.0), embedded/schemas/*.json and the type model
// (embedded/binding-model.json, for the typed walk of beyond.go) → read once, on first use.
//
// WHY it is shaped this way: a module consumed from the Go module cache has no checkout beside it, so everything the
// validator needs travels inside the package. The files under embedded/ are byte copies of spec/ written by
// scripts/seq_io_maint/codegen_go.py (and drift-checked by it); numbers are never retyped here.

package seqio

import (
	"embed"
	"encoding/json"
	"sort"
	"sync"
)

//go:embed embedded/contract.json embedded/identifier-characters.json embedded/binding-model.json
//go:embed embedded/schemas/*.json
var specFiles embed.FS

// ContractLimits are the contract limits of spec/contract.json that this binding applies.
type ContractLimits struct {
	MaxJSONDepth     int   `json:"MAX_JSON_DEPTH"`
	MaxIntegerDigits int   `json:"MAX_INTEGER_DIGITS"`
	MaxStreamBytes   int   `json:"MAX_STREAM_BYTES"`
	MaxSafeInteger   int64 `json:"MAX_SAFE_INTEGER"`
}

var limitsOnce = sync.OnceValue(func() ContractLimits {
	var contract struct {
		Limits ContractLimits `json:"limits"`
	}
	mustReadEmbedded("embedded/contract.json", &contract)
	return contract.Limits
})

// Limits returns the contract limits (spec/contract.json).
func Limits() ContractLimits { return limitsOnce() }

func mustReadEmbedded(name string, into any) {
	data, err := specFiles.ReadFile(name)
	if err == nil {
		err = json.Unmarshal(data, into)
	}
	if err != nil {
		panic("seqio: the embedded file " + name + " is unreadable: " + err.Error())
	}
}

// runeRanges is a sorted list of inclusive [first, last] code point ranges.
type runeRanges [][2]rune

func (rs runeRanges) contains(c rune) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] >= c })
	return i < len(rs) && rs[i][0] <= c
}

type identifierTable struct {
	start, cont runeRanges
}

var identifiersOnce = sync.OnceValue(func() identifierTable {
	var table struct {
		Start    runeRanges `json:"xid_start"`
		Continue runeRanges `json:"xid_continue"`
	}
	mustReadEmbedded("embedded/identifier-characters.json", &table)
	return identifierTable{start: table.Start, cont: table.Continue}
})
