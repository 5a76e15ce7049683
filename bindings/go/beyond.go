// A schema-valid value → every node of every contract type in it (by the type model, embedded as
// embedded/binding-model.json) → the refusals of the rules beyond the schema, or the value normalized in place
// (spec/validation.md "Rules beyond the schema", "Normalization").
//
// WHY it is shaped this way: the rules are written per type ("every InferParam") but those types sit at many
// depths, so one walk over the type model finds them wherever they are nested; the model is the same file the
// generated types come from, so a new field never needs teaching here. The walk only runs on schema-valid values,
// whose depth the wire rules already bound.

package seqio

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// modelExpr is a type expression of generated/binding-model.json.
type modelExpr struct {
	Kind    string      `json:"kind"`
	Name    string      `json:"name"`
	Items   modelItems  `json:"items"`
	Values  *modelExpr  `json:"values"`
	Options []modelExpr `json:"options"`
}

// modelItems is `items`: one expression for a list, several for a tuple.
type modelItems []modelExpr

func (items *modelItems) UnmarshalJSON(data []byte) error {
	var many []modelExpr
	if err := json.Unmarshal(data, &many); err == nil {
		*items = many
		return nil
	}
	var one modelExpr
	if err := json.Unmarshal(data, &one); err != nil {
		return err
	}
	*items = []modelExpr{one}
	return nil
}

type modelType struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Fields []struct {
		JSON string    `json:"json"`
		Type modelExpr `json:"type"`
	} `json:"fields"`
}

var typeModel = sync.OnceValue(func() map[string]modelType {
	var model struct {
		Types []modelType `json:"types"`
	}
	mustReadEmbedded("embedded/binding-model.json", &model)
	byName := map[string]modelType{}
	for _, t := range model.Types {
		byName[t.Name] = t
	}
	return byName
})

// typedNode is one object node of a named type, with its path.
type typedNode struct {
	typeName string
	value    *Value
	path     string
}

// typedNodes lists every object node of a named type inside v, parents before children.
func typedNodes(typeName string, v *Value) []typedNode {
	var out []typedNode
	collectNodes(modelExpr{Kind: "ref", Name: typeName}, v, "$", &out)
	return out
}

func collectNodes(expr modelExpr, v *Value, path string, out *[]typedNode) {
	switch expr.Kind {
	case "ref":
		named := typeModel()[expr.Name]
		if named.Kind != "object" || v.Kind != KindObject {
			return
		}
		*out = append(*out, typedNode{typeName: expr.Name, value: v, path: path})
		for _, field := range named.Fields {
			if member, ok := v.Get(field.JSON); ok && member.Kind != KindNull {
				collectNodes(field.Type, member, path+pathMember(field.JSON), out)
			}
		}
	case "list", "tuple":
		if v.Kind != KindArray || len(expr.Items) == 0 {
			return
		}
		for i := range v.Items {
			collectNodes(expr.Items[min(i, len(expr.Items)-1)], &v.Items[i], path+pathIndex(i), out)
		}
	case "map":
		if v.Kind != KindObject {
			return
		}
		for i := range v.Members {
			collectNodes(*expr.Values, &v.Members[i].Value, path+pathMember(v.Members[i].Key), out)
		}
	case "union":
		for _, option := range expr.Options {
			if optionAdmits(option, v) {
				collectNodes(option, v, path, out)
				return
			}
		}
	}
}

func optionAdmits(option modelExpr, v *Value) bool {
	switch option.Kind {
	case "list", "tuple":
		return v.Kind == KindArray
	case "map", "ref":
		return v.Kind == KindObject
	}
	return false
}

// beyondSchemaRules are the rules beyond the schema, by the type whose nodes they inspect.
var beyondSchemaRules = map[string]func(node *Value, path string) []Refusal{
	"DeploymentPolicy": paramNameRefusals,
	"ActionContract":   boundsRefusals,
	"InferParam":       inferParamRefusals,
	"Lease":            leaseRefusals,
}

func beyondSchema(typeName string, v *Value) []Refusal {
	var out []Refusal
	for _, node := range typedNodes(typeName, v) {
		if rule, ok := beyondSchemaRules[node.typeName]; ok {
			out = append(out, rule(node.value, node.path)...)
		}
	}
	return out
}

// present is a member that is there and not null.
func present(node *Value, key string) (*Value, bool) {
	v, ok := node.Get(key)
	return v, ok && v.Kind != KindNull
}

// paramNameRefusals: DeploymentPolicy.param-name, each `params` key an identifier (Unicode 14.0) not starting with `_`.
func paramNameRefusals(node *Value, path string) []Refusal {
	params, ok := present(node, "params")
	if !ok {
		return nil
	}
	var out []Refusal
	for _, m := range params.Members {
		if !IsParamName(m.Key) {
			out = append(out, Refusal{Path: path + ".params", Rule: "DeploymentPolicy.param-name", Message: fmt.Sprintf(
				"the parameter name %s is not an identifier (Unicode 14.0) or starts with '_'", quote(m.Key))})
		}
	}
	return out
}

// IsParamName says whether a name is an identifier by XID_Start/XID_Continue of Unicode 14.0 (so not `_x`).
func IsParamName(name string) bool {
	table := identifiersOnce()
	for i, c := range []rune(name) {
		if (i == 0 && !table.start.contains(c)) || (i > 0 && !table.cont.contains(c)) {
			return false
		}
	}
	return name != ""
}

// boundsRefusals: ActionContract.bounds-count, bounds-order and max-delta-count.
func boundsRefusals(node *Value, path string) []Refusal {
	dimValue, _ := node.Get("action_dim")
	dim := dimValue.Number.BigInt().Int64()
	var out []Refusal
	if bounds, ok := present(node, "bounds"); ok {
		if int64(len(bounds.Items)) != dim {
			out = append(out, Refusal{Path: path + ".bounds", Rule: "ActionContract.bounds-count", Message: fmt.Sprintf(
				"bounds holds %d [low, high] pairs but action_dim is %d", len(bounds.Items), dim)})
		} else {
			for i, pair := range bounds.Items {
				if pair.Items[0].Number.Cmp(pair.Items[1].Number) > 0 {
					out = append(out, Refusal{Path: path + ".bounds" + pathIndex(i), Rule: "ActionContract.bounds-order",
						Message: "the pair has low above high"})
				}
			}
		}
	}
	if delta, ok := present(node, "max_delta"); ok && delta.Kind == KindArray && int64(len(delta.Items)) != dim {
		out = append(out, Refusal{Path: path + ".max_delta", Rule: "ActionContract.max-delta-count", Message: fmt.Sprintf(
			"max_delta lists %d values but action_dim is %d (or give one number)", len(delta.Items), dim)})
	}
	return out
}

// inferParamRefusals: InferParam.min-not-above-max and InferParam.default-allowed.
func inferParamRefusals(node *Value, path string) []Refusal {
	low, hasLow := present(node, "min")
	high, hasHigh := present(node, "max")
	var out []Refusal
	if hasLow && hasHigh && low.Number.Cmp(high.Number) > 0 {
		out = append(out, Refusal{Path: path, Rule: "InferParam.min-not-above-max", Message: "min is above max"})
	}
	def, ok := present(node, "default")
	if !ok {
		return out
	}
	refuse := func(why string) []Refusal {
		return append(out, Refusal{Path: path + ".default", Rule: "InferParam.default-allowed", Message: why})
	}
	if choices, ok := present(node, "choices"); ok && !anyEqual(choices.Items, def) {
		return refuse("the default is not one of the choices (JSON equality: true is not 1, 1 is 1.0)")
	}
	if !hasLow && !hasHigh {
		return out
	}
	if def.Kind != KindNumber {
		return refuse("the default is not a number, so it cannot lie within min and max")
	}
	if (hasLow && def.Number.Cmp(low.Number) < 0) || (hasHigh && def.Number.Cmp(high.Number) > 0) {
		return refuse("the default lies outside [min, max]")
	}
	return out
}

func anyEqual(items []Value, v *Value) bool {
	for i := range items {
		if Equal(&items[i], v) {
			return true
		}
	}
	return false
}

// leaseRefusals: Lease.expires-at-real-date, the date part exists in the proleptic Gregorian calendar.
func leaseRefusals(node *Value, path string) []Refusal {
	at, _ := node.Get("expires_at")
	date := at.String[:10]
	year, _ := strconv.Atoi(date[0:4])
	month, _ := strconv.Atoi(date[5:7])
	day, _ := strconv.Atoi(date[8:10])
	if dayExists(year, month, day) {
		return nil
	}
	return []Refusal{{Path: path + ".expires_at", Rule: "Lease.expires-at-real-date",
		Message: date + " is not a day of the calendar"}}
}

// dayExists: the pattern already keeps month in 1..12 and day in 1..31; year 0000 is a leap year.
func dayExists(year, month, day int) bool {
	if month == 2 {
		leap := year%4 == 0 && (year%100 != 0 || year%400 == 0)
		return day <= 28 || (leap && day == 29)
	}
	return day <= 30 || (month != 4 && month != 6 && month != 9 && month != 11)
}

// normalize applies Stream.sort-at and DeploymentPolicy.fold-streaming, children before parents so that a parent
// rebuilding its members copies children already normalized.
func normalize(typeName string, v *Value) {
	nodes := typedNodes(typeName, v)
	for i := len(nodes) - 1; i >= 0; i-- {
		switch nodes[i].typeName {
		case "Stream":
			sortAt(nodes[i].value)
		case "DeploymentPolicy":
			foldStreaming(nodes[i].value)
		}
	}
}

func sortAt(stream *Value) {
	if at, ok := present(stream, "at"); ok {
		sort.SliceStable(at.Items, func(i, j int) bool { return at.Items[i].Number.Cmp(at.Items[j].Number) < 0 })
	}
}

func foldStreaming(policy *Value) {
	streaming, ok := policy.Get("streaming")
	if !ok {
		return
	}
	own := streaming.Kind == KindBool && streaming.Bool
	kept := make([]Member, 0, len(policy.Members))
	for _, m := range policy.Members {
		if m.Key != "streaming" {
			kept = append(kept, m)
		}
	}
	policy.Members = kept
	if !own {
		return
	}
	if episodes, ok := policy.Get("episodes"); ok {
		*episodes = StringValue("own")
		return
	}
	policy.Members = append(policy.Members, Member{Key: "episodes", Value: StringValue("own")})
}
