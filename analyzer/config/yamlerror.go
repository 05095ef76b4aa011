package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/idemcheck/idemcheck/internal/suggest"
)

// unknownField is yaml's message for a key no field takes.
var unknownField = regexp.MustCompile(`^(line \d+): field (\S+) not found in type config\.(\w+)$`)

// wrongKind is yaml's "cannot unmarshal <value> into <type>", said in the
// file's words once the types are.
var wrongKind = regexp.MustCompile(`cannot unmarshal (.+) into (.+)$`)

// goTypes are the Go types yaml names in its messages, in the words of the
// file's documentation; longer names first.
var goTypes = []struct{ goType, words string }{
	{"[]config.Pattern", "a list of entries (package, function, field…)"},
	{"config.Pattern", "an entry (package, function, field…)"},
	{"config.Config", "the configuration (a mapping of keys)"},
	{"[]string", "a list"},
	{"string", "a string"},
	{"int", "a whole number"},
	{"bool", "true or false"},
}

// yamlTags are yaml's names for the kinds of value it read.
var yamlTags = strings.NewReplacer("!!str", "text", "!!seq", "a list", "!!map", "a mapping",
	"!!int", "a number", "!!float", "a number", "!!bool", "true/false", "!!null", "nothing")

// keysOf are the keys each configuration type accepts.
var keysOf = map[string][]string{
	"Config":  yamlKeys(reflect.TypeFor[Config]()),
	"Pattern": yamlKeys(reflect.TypeFor[Pattern]()),
}

func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
			keys = append(keys, strings.Split(tag, ",")[0])
		}
	}
	return keys
}

// describeYAMLError rewrites yaml's decoding errors for the person editing
// the file: unknown keys with the key they probably meant, and no Go type
// names.
func describeYAMLError(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(oneLine(err.Error()), "yaml: ")
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		if sm := unknownField.FindStringSubmatch(m); sm != nil {
			msgs[i] = fmt.Sprintf("%s: unknown key %q", sm[1], sm[2])
			if s := suggest.Closest(sm[2], keysOf[sm[3]]); s != "" {
				msgs[i] += fmt.Sprintf(" (did you mean %q?)", s)
			}
			continue
		}
		for _, g := range goTypes {
			m = strings.ReplaceAll(m, "into "+g.goType, "into "+g.words)
		}
		m = yamlTags.Replace(m)
		msgs[i] = wrongKind.ReplaceAllString(m, "$1 where $2 belongs")
	}
	return strings.Join(msgs, "; ")
}
