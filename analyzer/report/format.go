package report

import (
	"io"
	"sort"
	"sync"

	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
)

// Env is what a format may need besides the result.
type Env struct {
	Style   Style          // decoration of the text format; nil is plain
	Rules   []ruledoc.Rule // documentation of every rule (SARIF)
	Version string         // idemcheck version (SARIF)
	Width   int            // columns to wrap the text format to; 0 does not wrap
}

// Format writes a Result in one output format, selected by
// `idemcheck lint --format NAME`.
type Format struct {
	Name  string
	Usage string
	Write func(w io.Writer, r Result, env Env) error
}

var (
	formatsMu sync.Mutex
	formats   = map[string]Format{}
)

// Register adds an output format; formats register themselves in init.
func Register(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	formats[f.Name] = f
}

// Lookup returns the format with the given name.
func Lookup(name string) (Format, bool) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	f, ok := formats[name]
	return f, ok
}

// FormatNames lists the registered formats, sorted.
func FormatNames() []string {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func init() {
	Register(Format{Name: "text", Usage: "human text grouped by file (styled on a terminal)",
		Write: func(w io.Writer, r Result, env Env) error { return WriteTextWidth(w, r, env.Style, env.Width) }})
	Register(Format{Name: "json", Usage: `{"findings":[{"rule","file","line","column","message","related":[…]}], "errors":[{"package","message"}]}`,
		Write: func(w io.Writer, r Result, _ Env) error { return WriteJSON(w, r) }})
}
