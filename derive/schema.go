package derive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Schema is a rules version plus, per action, the explicit ordered list of
// payload fields that make up the key. A field not listed is never hashed:
// adding one is a conscious change that needs a new version.
type Schema struct {
	Version int
	Actions []Action
}

// Action is one kind of intent (e.g. "pix.cobranca") and its key fields.
type Action struct {
	Name   string
	Fields []Field
}

// Field is one payload field and the rule that normalizes it.
type Field struct {
	Name string
	Rule string
	// TypeField names a sibling payload field holding a key type, for rules
	// such as pix_key_typed that normalize by type. Validate refuses it on
	// any other rule.
	TypeField string
}

// DefaultSchema returns version 1 of the reference function's schema.
func DefaultSchema() *Schema {
	return &Schema{
		Version: 1,
		Actions: []Action{
			{Name: "pix.cobranca", Fields: []Field{
				{Name: "cliente_id", Rule: "text"},
				{Name: "valor", Rule: "cents"},
				{Name: "chave_pix_destino", Rule: "pix_key"},
				{Name: "referencia_intencao", Rule: "trim"},
			}},
			{Name: "email.cobranca", Fields: []Field{
				{Name: "cliente_id", Rule: "text"},
				{Name: "referencia_intencao", Rule: "trim"},
				{Name: "template", Rule: "trim_lower"},
			}},
		},
	}
}

// Action returns the action named name.
func (s *Schema) Action(name string) (*Action, bool) {
	for i := range s.Actions {
		if s.Actions[i].Name == name {
			return &s.Actions[i], true
		}
	}
	return nil, false
}

// ActionNames returns the schema's action names in order.
func (s *Schema) ActionNames() []string {
	names := make([]string, len(s.Actions))
	for i, a := range s.Actions {
		names[i] = a.Name
	}
	return names
}

// Validate reports the first problem that would make keys ambiguous or
// underivable: an unknown rule, an empty or repeated name, a missing version.
func (s *Schema) Validate() error {
	if s.Version < 1 {
		return fmt.Errorf("schema: version must be a positive integer, got %d", s.Version)
	}
	if len(s.Actions) == 0 {
		return errors.New("schema: no actions")
	}
	seenAction := map[string]bool{}
	for _, a := range s.Actions {
		if a.Name == "" {
			return errors.New("schema: an action has an empty name")
		}
		if seenAction[a.Name] {
			return fmt.Errorf("schema: action %q is defined twice", a.Name)
		}
		seenAction[a.Name] = true
		if len(a.Fields) == 0 {
			return fmt.Errorf("schema: action %q has no fields", a.Name)
		}
		seenField := map[string]bool{}
		for _, f := range a.Fields {
			if f.Name == "" {
				return fmt.Errorf("schema: action %q has a field with an empty name", a.Name)
			}
			if seenField[f.Name] {
				return fmt.Errorf("schema: action %q lists field %q twice", a.Name, f.Name)
			}
			seenField[f.Name] = true
			if _, ok := lookupRule(f.Rule); !ok {
				return fmt.Errorf("schema: action %q field %q: unknown rule %q (known: %s)",
					a.Name, f.Name, f.Rule, strings.Join(RuleNames(), ", "))
			}
			if f.TypeField == f.Name {
				return fmt.Errorf("schema: action %q field %q: type_field names the field itself", a.Name, f.Name)
			}
			if err := checkRuleFitsSchema(s.Version, a.Name, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// rulesOfVersion1 are the rules the reference function had at rules version
// 1. A schema using any other rule must carry its own version, because a new
// rule changes the keys of every intent it touches.
var rulesOfVersion1 = map[string]bool{"text": true, "cents": true, "pix_key": true, "trim": true, "trim_lower": true}

// checkRuleFitsSchema refuses, at load time, field definitions that could
// only fail later, at derive time.
func checkRuleFitsSchema(version int, action string, f Field) error {
	if version == 1 && !rulesOfVersion1[f.Rule] {
		return fmt.Errorf("schema: action %q field %q: rule %q is not a version 1 rule; a schema that uses it needs its own rules version (2 or more)", action, f.Name, f.Rule)
	}
	if f.Rule == RulePixKeyTyped && f.TypeField == "" {
		return fmt.Errorf("schema: action %q field %q: rule %s needs type_field (the payload field holding the key type)", action, f.Name, RulePixKeyTyped)
	}
	if f.Rule != RulePixKeyTyped && f.TypeField != "" {
		// Ignoring it would let a schema author believe the type is used.
		return fmt.Errorf("schema: action %q field %q: type_field only applies to rule %s, not %s", action, f.Name, RulePixKeyTyped, f.Rule)
	}
	return nil
}

// LoadSchemaFile reads and validates a YAML schema file.
func LoadSchemaFile(path string) (*Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSchema(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseSchema reads a YAML schema:
//
//	version: 1
//	actions:
//	  pix.cobranca:
//	    fields:
//	      - name: cliente_id
//	        rule: text
//
// Unknown keys, rules and duplicate names are errors naming the culprit.
// Actions keep the file's order.
func ParseSchema(data []byte) (*Schema, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("schema: empty document")
		}
		return nil, fmt.Errorf("schema: %w", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("schema: empty document")
	}
	// A second document would be silently ignored: which one is the schema?
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
		return nil, nodeErr(&extra, "a second YAML document; a schema file holds one")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, nodeErr(root, "the schema must be a mapping with version and actions")
	}
	if err := checkUniqueKeys(root); err != nil {
		return nil, err
	}
	s := &Schema{}
	var sawVersion, sawActions bool
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		switch key.Value {
		case "version":
			sawVersion = true
			// yaml.v3 decodes 2.5 into an int as 2: accept integer literals only.
			if val.Kind != yaml.ScalarNode || val.ShortTag() != "!!int" {
				return nil, nodeErr(val, fmt.Sprintf("version must be an integer, got %q", val.Value))
			}
			if err := val.Decode(&s.Version); err != nil {
				return nil, nodeErr(val, fmt.Sprintf("version must be an integer, got %q", val.Value))
			}
		case "actions":
			sawActions = true
			actions, err := parseActions(val)
			if err != nil {
				return nil, err
			}
			s.Actions = actions
		default:
			return nil, nodeErr(key, fmt.Sprintf("unknown key %q (want version, actions)", key.Value))
		}
	}
	if !sawVersion {
		return nil, errors.New("schema: missing version")
	}
	if !sawActions {
		return nil, errors.New("schema: missing actions")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

func parseActions(n *yaml.Node) ([]Action, error) {
	if n.Kind != yaml.MappingNode {
		return nil, nodeErr(n, "actions must be a mapping from action name to its fields")
	}
	if err := checkUniqueKeys(n); err != nil {
		return nil, err
	}
	var actions []Action
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		a := Action{Name: key.Value}
		if val.Kind != yaml.MappingNode {
			return nil, nodeErr(val, fmt.Sprintf("action %q must be a mapping with fields", a.Name))
		}
		if err := checkUniqueKeys(val); err != nil {
			return nil, err
		}
		for j := 0; j+1 < len(val.Content); j += 2 {
			k, v := val.Content[j], val.Content[j+1]
			if k.Value != "fields" {
				return nil, nodeErr(k, fmt.Sprintf("action %q: unknown key %q (want fields)", a.Name, k.Value))
			}
			fields, err := parseFields(a.Name, v)
			if err != nil {
				return nil, err
			}
			a.Fields = fields
		}
		actions = append(actions, a)
	}
	return actions, nil
}

func parseFields(action string, n *yaml.Node) ([]Field, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, nodeErr(n, fmt.Sprintf("action %q: fields must be a list", action))
	}
	fields := make([]Field, 0, len(n.Content))
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			return nil, nodeErr(item, fmt.Sprintf("action %q: each field must be a mapping with name and rule", action))
		}
		if err := checkUniqueKeys(item); err != nil {
			return nil, err
		}
		var f Field
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j], item.Content[j+1]
			if v.Kind != yaml.ScalarNode {
				return nil, nodeErr(v, fmt.Sprintf("action %q: %s must be a string", action, k.Value))
			}
			switch k.Value {
			case "name":
				f.Name = v.Value
			case "rule":
				f.Rule = v.Value
			case "type_field":
				f.TypeField = v.Value
			default:
				return nil, nodeErr(k, fmt.Sprintf("action %q: unknown field key %q (want name, rule, type_field)", action, k.Value))
			}
		}
		if f.Rule == "" {
			return nil, nodeErr(item, fmt.Sprintf("action %q field %q: missing rule", action, f.Name))
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// checkUniqueKeys refuses a mapping that repeats a key: yaml.v3 keeps both
// in a Node, and silently taking the last would hide an editing mistake.
func checkUniqueKeys(n *yaml.Node) error {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			return nodeErr(k, fmt.Sprintf("key %q appears twice", k.Value))
		}
		seen[k.Value] = true
	}
	return nil
}

func nodeErr(n *yaml.Node, msg string) error {
	return fmt.Errorf("schema: line %d: %s", n.Line, msg)
}

// YAML renders the schema in the format ParseSchema reads.
func (s *Schema) YAML() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "version: %d\n", s.Version)
	b.WriteString("actions:\n")
	for _, a := range s.Actions {
		fmt.Fprintf(&b, "  %s:\n    fields:\n", yamlScalar(a.Name))
		for _, f := range a.Fields {
			fmt.Fprintf(&b, "      - name: %s\n        rule: %s\n", yamlScalar(f.Name), yamlScalar(f.Rule))
			if f.TypeField != "" {
				fmt.Fprintf(&b, "        type_field: %s\n", yamlScalar(f.TypeField))
			}
		}
	}
	return b.Bytes()
}

// yamlScalar quotes s when a plain YAML scalar would not read back as the
// same string.
func yamlScalar(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil {
		return fmt.Sprintf("%q", s)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// sortedFieldOrder returns the indexes of a's fields sorted by name in code
// point order: the order of the canonical "p" object.
func (a *Action) sortedFieldOrder() []int {
	idx := make([]int, len(a.Fields))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int { return strings.Compare(a.Fields[x].Name, a.Fields[y].Name) })
	return idx
}
