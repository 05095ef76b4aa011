package restarttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// answerDifference says where an answer first differs from the stored
// one: the status, else the first JSON path whose value differs (JSON
// compared by value), else the first differing byte of the body. "" when
// they are the same answer.
func answerDifference(status int, body string, stored Attempt) string {
	if status != stored.HTTPStatus {
		return fmt.Sprintf("status %d → %d", stored.HTTPStatus, status)
	}
	if fingerprint([]byte(body)) == fingerprint([]byte(stored.Response)) {
		return ""
	}
	want, okW := decodeJSON(stored.Response)
	got, okG := decodeJSON(body)
	if okW && okG {
		if d := jsonDifference("$", want, got); d != "" {
			return "JSON " + d
		}
	}
	i := 0
	for i < len(body) && i < len(stored.Response) && body[i] == stored.Response[i] {
		i++
	}
	return fmt.Sprintf("body at byte %d: %s → %s", i, excerpt(stored.Response, i), excerpt(body, i))
}

func decodeJSON(s string) (any, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

// jsonDifference is "PATH: stored → got" at the first path, in key order,
// where two JSON values differ.
func jsonDifference(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := slices.Sorted(maps.Keys(w))
		for k := range g {
			if _, seen := w[k]; !seen {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			wv, inW := w[k]
			gv, inG := g[k]
			p := path + "." + k
			switch {
			case !inW:
				return fmt.Sprintf("%s: absent → %s", p, jsonText(gv))
			case !inG:
				return fmt.Sprintf("%s: %s → absent", p, jsonText(wv))
			}
			if d := jsonDifference(p, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			if d := jsonDifference(path+"["+strconv.Itoa(i)+"]", w[i], g[i]); d != "" {
				return d
			}
		}
		if len(w) != len(g) {
			return fmt.Sprintf("%s: %d elements → %d", path, len(w), len(g))
		}
		return ""
	}
	if jsonText(want) == jsonText(got) {
		return ""
	}
	return fmt.Sprintf("%s: %s → %s", path, jsonText(want), jsonText(got))
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	if r := []rune(string(b)); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return string(b)
}

// excerpt is a few characters of s from byte i, quoted.
func excerpt(s string, i int) string {
	if i >= len(s) {
		return "(end)"
	}
	r := []rune(s[i:])
	if len(r) > 20 {
		return strconv.Quote(string(r[:20])) + "…"
	}
	return strconv.Quote(string(r))
}
