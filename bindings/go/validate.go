// Validate(type name, JSON text) → valid + the normalized value, or the refusals {path, rule, message}, in the
// order of concern of spec/validation.md: the wire rules (read.go), then JSON Schema 2020-12 by
// santhosh-tekuri/jsonschema over the embedded schemas (errors mapped to paths and rule ids here), then the rules
// beyond the schema and the normalizations (beyond.go).
//
// WHY it is shaped this way: the engine reports a tree of errors with absolute keyword locations; the spec's rule
// ids need the nearest `x-rule` on the way from the root through `$ref`s, the `anyOf` branch rule, `propertyNames`
// at the object, and the lowest rank per path. So the tree is walked once, carrying the `$ref` locations passed,
// and each leaf is looked up in the schema documents themselves. The engine is fed values converted from the exact
// value model (integers as their digits, doubles as their shortest text), so its exact big.Rat comparisons see the
// spec's values, and its regular expressions run on regexp2 in ECMAScript mode, since Go's RE2 has no lookahead.

package seqio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaBase is the $id base of the shipped schemas.
const SchemaBase = "https://seq-io-spec.example/schemas/"

// maxRefusals bounds how many refusals one document reports (spec/validation.md "Limits").
const maxRefusals = 100

// Result is the outcome of Validate: valid with the normalized value, or the refusals.
type Result struct {
	Valid      bool
	Normalized Value
	Refusals   []Refusal
}

// Validate checks JSON text as an instance of the named contract type.
func Validate(typeName string, text []byte) (Result, error) {
	value, refusals := ReadJSON(text)
	if len(refusals) > 0 {
		return refused(refusals), nil
	}
	return ValidateValue(typeName, value)
}

// ValidateValue checks a value built in memory (or read by ReadJSON or ReadMessage) as an instance of the type:
// the wire limits first (CheckValue), decided exactly as the text API decides the same document.
func ValidateValue(typeName string, value Value) (Result, error) {
	set, err := compiledSchemas()
	if err != nil {
		return Result{}, err
	}
	schema, ok := set.byType[typeName]
	if !ok {
		return Result{}, fmt.Errorf("no contract type is named %q", typeName)
	}
	if refusals := CheckValue(&value); len(refusals) > 0 {
		return refused(refusals), nil
	}
	if verr := schema.Validate(toEngineValue(&value)); verr != nil {
		var tree *jsonschema.ValidationError
		if !errors.As(verr, &tree) {
			return Result{}, verr
		}
		return refused(set.refusalsOf(tree, &value)), nil
	}
	if refusals := beyondSchema(typeName, &value); len(refusals) > 0 {
		return refused(refusals), nil
	}
	normalize(typeName, &value)
	return Result{Valid: true, Normalized: value}, nil
}

func refused(refusals []Refusal) Result {
	sort.SliceStable(refusals, func(i, j int) bool { return refusals[i].Path < refusals[j].Path })
	if len(refusals) > maxRefusals {
		refusals = refusals[:maxRefusals]
	}
	return Result{Refusals: refusals}
}

// toEngineValue is the value as the engine reads it: numbers as json.Number of their exact value.
func toEngineValue(v *Value) any {
	switch v.Kind {
	case KindBool:
		return v.Bool
	case KindNumber:
		return json.Number(v.Number.CanonicalText())
	case KindString:
		return v.String
	case KindArray:
		items := make([]any, len(v.Items))
		for i := range v.Items {
			items[i] = toEngineValue(&v.Items[i])
		}
		return items
	case KindObject:
		members := make(map[string]any, len(v.Members))
		for i := range v.Members {
			members[v.Members[i].Key] = toEngineValue(&v.Members[i].Value)
		}
		return members
	}
	return nil
}

// schemaSet is the compiled schemas by type name and the raw documents by $id (for x-rule and anyOf lookups).
type schemaSet struct {
	byType map[string]*jsonschema.Schema
	docs   map[string]any
}

var compiledSchemas = sync.OnceValues(compileSchemas)

func compileSchemas() (*schemaSet, error) {
	set := &schemaSet{byType: map[string]*jsonschema.Schema{}, docs: map[string]any{}}
	compiler := jsonschema.NewCompiler()
	compiler.UseRegexpEngine(ecmaScriptRegexp)
	compiler.UseLoader(noNetwork{})
	names, err := fs.Glob(specFiles, "embedded/schemas/*.json")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		data, _ := specFiles.ReadFile(name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("embedded schema %s: %w", name, err)
		}
		id := SchemaBase + strings.TrimPrefix(name, "embedded/schemas/")
		set.docs[id] = doc
		if err := compiler.AddResource(id, doc); err != nil {
			return nil, err
		}
	}
	for id := range set.docs {
		schema, err := compiler.Compile(id)
		if err != nil {
			return nil, fmt.Errorf("compiling %s: %w", id, err)
		}
		set.byType[strings.TrimSuffix(strings.TrimPrefix(id, SchemaBase), ".json")] = schema
	}
	return set, nil
}

// noNetwork refuses every URL the schemas do not carry themselves: nothing is ever fetched.
type noNetwork struct{}

func (noNetwork) Load(u string) (any, error) {
	return nil, fmt.Errorf("%s is not one of the embedded schemas; nothing is fetched", u)
}

// ecmaScriptRegexp runs the schemas' patterns with regexp2 in ECMAScript mode (lookahead included).
func ecmaScriptRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return (*ecmaRegexp)(re), nil
}

type ecmaRegexp regexp2.Regexp

func (re *ecmaRegexp) MatchString(s string) bool {
	matched, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && matched
}

func (re *ecmaRegexp) String() string { return (*regexp2.Regexp)(re).String() }

// ranked is a refusal with the rank of its failing keyword (1 type, 2 required, 3 additionalProperties, 4 others).
type ranked struct {
	Refusal
	rank int
	// kind words the sentence, written only for the refusals reported (a document may be refused 100,000 times).
	kind jsonschema.ErrorKind
}

var printer = message.NewPrinter(language.English)

// refusalsOf maps the engine's error tree to the spec's refusals. Every refusal of the lowest rank at a path MUST
// be reported and the others MAY (spec/validation.md "Which refusals an implementation reports"); this validator
// reports them all, lowest rank first at each path, as the reference implementation does.
func (set *schemaSet) refusalsOf(tree *jsonschema.ValidationError, instance *Value) []Refusal {
	walk := errorWalk{set: set, instance: instance, byName: map[*Value]map[string]*Value{}}
	walk.visit(tree, context{})
	sort.SliceStable(walk.found, func(i, j int) bool {
		a, b := walk.found[i], walk.found[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.Rule < b.Rule
	})
	seen := map[[2]string]bool{}
	var out []Refusal
	for _, r := range walk.found {
		key := [2]string{r.Path, r.Rule}
		if seen[key] {
			continue
		}
		seen[key] = true
		if r.kind != nil {
			r.Message = cutSentence(r.kind.LocalizedString(printer))
		}
		if out = append(out, r.Refusal); len(out) == maxRefusals {
			break
		}
	}
	return out
}

type errorWalk struct {
	set      *schemaSet
	instance *Value
	found    []ranked
	// byName indexes the members of each object a path went through, so that a document refused at each of its
	// 100,000 members costs linear time, not quadratic.
	byName map[*Value]map[string]*Value
}

// child is the item or member a location token names inside node (nil when there is none).
func (w *errorWalk) child(node *Value, token string) *Value {
	switch node.Kind {
	case KindArray:
		i, _ := strconv.Atoi(token)
		return itemAt(node, i)
	case KindObject:
		index, ok := w.byName[node]
		if !ok {
			index = make(map[string]*Value, len(node.Members))
			for i := range node.Members {
				index[node.Members[i].Key] = &node.Members[i].Value
			}
			w.byName[node] = index
		}
		return index[token]
	}
	return nil
}

// context is what a node of the tree inherits from the nodes above it: the `$ref` locations passed on the way
// (innermost last) and, inside a `propertyNames` check, the object's path and the member name being checked.
type context struct {
	refs       []string
	objectPath string
	name       *Value
}

// visit handles one node of the tree.
func (w *errorWalk) visit(e *jsonschema.ValidationError, ctx context) {
	path := ctx.objectPath
	if ctx.name == nil {
		path = w.pathOf(e.InstanceLocation)
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Reference:
		ctx.refs = append(ctx.refs[:len(ctx.refs):len(ctx.refs)], e.SchemaURL)
	case *kind.PropertyNames:
		name := StringValue(k.Property)
		ctx.objectPath, ctx.name = path, &name
	case *kind.AnyOf:
		w.anyOf(e, ctx, path)
		return
	case *kind.Schema, *kind.Group, *kind.AllOf:
	default:
		if len(e.Causes) == 0 {
			w.leaf(e, ctx.refs, path, keywordName(k))
			return
		}
	}
	for _, cause := range e.Causes {
		w.visit(cause, ctx)
	}
}

// keywordName is the schema keyword an error kind stands for.
func keywordName(k jsonschema.ErrorKind) string {
	if kw := k.KeywordPath(); len(kw) > 0 {
		return kw[0]
	}
	switch k.(type) {
	case *kind.Not:
		return "not"
	case *kind.FalseSchema:
		return "false"
	}
	return "schema"
}

var keywordRanks = map[string]int{"type": 1, "required": 2, "additionalProperties": 3}

func rankOf(keyword string) int {
	if rank, ok := keywordRanks[keyword]; ok {
		return rank
	}
	return 4
}

func (w *errorWalk) leaf(e *jsonschema.ValidationError, refs []string, path, keyword string) {
	rule := w.nearestRule(e.SchemaURL, refs) // from the schema holding the keyword, never from inside its value
	if rule == "" {
		rule = keyword
	}
	w.found = append(w.found, ranked{Refusal{Path: path, Rule: rule}, rankOf(keyword), e.ErrorKind})
}

// anyOf reports the refusals of each branch that admits the instance's JSON type, or one `type` refusal when none
// does (spec/validation.md "anyOf").
func (w *errorWalk) anyOf(e *jsonschema.ValidationError, ctx context, path string) {
	instance := ctx.name
	if instance == nil {
		instance = w.valueAt(e.InstanceLocation)
	}
	admitted := false
	for i, cause := range e.Causes {
		branch := w.set.resolve(e.SchemaURL + "/anyOf/" + strconv.Itoa(i))
		if instance != nil && !w.admits(branch, instance) {
			continue
		}
		admitted = true
		w.visit(cause, ctx)
	}
	if !admitted {
		rule := w.nearestRule(e.SchemaURL, ctx.refs)
		if rule == "" {
			rule = "type"
		}
		w.found = append(w.found, ranked{Refusal{Path: path, Rule: rule,
			Message: "the value's JSON type is none of those allowed here"}, 1, nil})
	}
}

// admits says whether a branch's own `type` keyword (after a `$ref` at its root) lets the instance's type in.
func (w *errorWalk) admits(branch any, instance *Value) bool {
	schema, ok := branch.(map[string]any)
	if !ok {
		return true
	}
	if ref, ok := schema["$ref"].(string); ok {
		if target, ok := w.set.docs[SchemaBase+ref].(map[string]any); ok {
			schema = target
		}
	}
	switch t := schema["type"].(type) {
	case string:
		return typeAdmits(t, instance)
	case []any:
		for _, one := range t {
			if s, ok := one.(string); ok && typeAdmits(s, instance) {
				return true
			}
		}
		return false
	}
	return true
}

func typeAdmits(t string, v *Value) bool {
	switch t {
	case "integer":
		return v.Kind == KindNumber && v.Number.IsInteger()
	case "number":
		return v.Kind == KindNumber
	case "string":
		return v.Kind == KindString
	case "boolean":
		return v.Kind == KindBool
	case "null":
		return v.Kind == KindNull
	case "array":
		return v.Kind == KindArray
	case "object":
		return v.Kind == KindObject
	}
	return false
}

// nearestRule is the x-rule nearest to a keyword: the schema holding it (location) and the schemas enclosing that
// in its own document, then those enclosing each `$ref` passed, innermost first.
func (w *errorWalk) nearestRule(location string, refs []string) string {
	if rule := w.set.ruleEnclosing(location); rule != "" {
		return rule
	}
	for i := len(refs) - 1; i >= 0; i-- {
		if rule := w.set.ruleEnclosing(refs[i] + "/$ref"); rule != "" {
			return rule
		}
	}
	return ""
}

// ruleEnclosing looks for `x-rule` on the schema at the location and on each schema enclosing it in its document.
func (set *schemaSet) ruleEnclosing(location string) string {
	base, pointer, _ := strings.Cut(location, "#")
	tokens := pointerTokens(pointer)
	for n := len(tokens); n >= 0; n-- {
		node := walkPointer(set.docs[base], tokens[:n])
		if schema, ok := node.(map[string]any); ok {
			if rule, ok := schema["x-rule"].(string); ok {
				return rule
			}
		}
	}
	return ""
}

func (set *schemaSet) resolve(location string) any {
	base, pointer, _ := strings.Cut(location, "#")
	return walkPointer(set.docs[base], pointerTokens(pointer))
}

func pointerTokens(pointer string) []string {
	var tokens []string
	for _, token := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if token == "" {
			continue
		}
		if unescaped, err := url.PathUnescape(token); err == nil {
			token = unescaped
		}
		tokens = append(tokens, strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~"))
	}
	return tokens
}

func walkPointer(node any, tokens []string) any {
	for _, token := range tokens {
		switch n := node.(type) {
		case map[string]any:
			node = n[token]
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(n) {
				return nil
			}
			node = n[i]
		default:
			return nil
		}
	}
	return node
}

// pathOf writes an instance location in the spec's path notation, telling indexes from names by the instance.
func (w *errorWalk) pathOf(location []string) string {
	var b strings.Builder
	b.WriteString("$")
	node := w.instance
	for _, token := range location {
		if node != nil && node.Kind == KindArray {
			i, _ := strconv.Atoi(token)
			b.WriteString(pathIndex(i))
		} else {
			b.WriteString(pathMember(token))
		}
		if node != nil {
			node = w.child(node, token)
		}
	}
	return b.String()
}

func (w *errorWalk) valueAt(location []string) *Value {
	node := w.instance
	for _, token := range location {
		if node == nil {
			return nil
		}
		node = w.child(node, token)
	}
	return node
}

func itemAt(v *Value, i int) *Value {
	if i < 0 || i >= len(v.Items) {
		return nil
	}
	return &v.Items[i]
}

// cutSentence keeps an engine message readable when it quotes a huge value.
func cutSentence(s string) string {
	runes := []rune(s)
	if len(runes) <= 200 {
		return s
	}
	return string(runes[:197]) + "..."
}
