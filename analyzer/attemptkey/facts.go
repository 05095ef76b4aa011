package attemptkey

import (
	"fmt"
	"sort"
)

// Summary is the object fact exported for a function: what calling it
// means for per-attempt values. All slices are sorted, so the fact
// encodes the same on every run.
type Summary struct {
	Results []Flow     // values reaching the results
	Outs    []Flow     // values reaching the memory of pointer parameters
	Sinks   []SinkFlow // parameters that reach a key sink
	// Persists lists the parameters the function writes to a database.
	Persists []int
}

// Flow is one value flowing into result (or out-parameter) To at path
// ToPath. From is the parameter it comes from (receiver is 0 for methods)
// at path FromPath, or -1 for a per-attempt source drawn inside.
type Flow struct {
	To       int
	ToPath   string
	From     int
	FromPath string
	Source   string // e.g. "uuid.NewString", when From == -1
	Kind     string // e.g. "random per attempt"
	Posn     string // "file:line:col" of the source, the file as go vet names it
	Via      []string
	// Persisted: the function writes the value to the database before
	// returning it (see persistedOut), so its row decides.
	Persisted bool
}

// SinkFlow is a parameter, at a path, that reaches a key sink.
type SinkFlow struct {
	Param int
	Path  string
	Sink  string // e.g. "header Idempotency-Key"
	Posn  string // "dir/file.go:line" of the sink
	Weak  bool   // a name-based sink, silent when the value is persisted
}

// AFact marks Summary as a fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	if len(s.Persists) > 0 {
		return fmt.Sprintf("summary(results=%d outs=%d sinks=%d persists=%v)", len(s.Results), len(s.Outs), len(s.Sinks), s.Persists)
	}
	return fmt.Sprintf("summary(results=%d outs=%d sinks=%d)", len(s.Results), len(s.Outs), len(s.Sinks))
}

func (s *Summary) empty() bool { return len(s.Results)+len(s.Outs)+len(s.Sinks)+len(s.Persists) == 0 }

func (s *Summary) sort() {
	less := func(a, b Flow) bool {
		return fmt.Sprint(a.To, "\x00", a.ToPath, "\x00", a.From, "\x00", a.FromPath, "\x00", a.Posn, "\x00", a.Source) <
			fmt.Sprint(b.To, "\x00", b.ToPath, "\x00", b.From, "\x00", b.FromPath, "\x00", b.Posn, "\x00", b.Source)
	}
	sort.SliceStable(s.Results, func(i, j int) bool { return less(s.Results[i], s.Results[j]) })
	sort.SliceStable(s.Outs, func(i, j int) bool { return less(s.Outs[i], s.Outs[j]) })
	sort.SliceStable(s.Sinks, func(i, j int) bool {
		a, b := s.Sinks[i], s.Sinks[j]
		return fmt.Sprint(a.Param, "\x00", a.Path, "\x00", a.Posn, "\x00", a.Sink) < fmt.Sprint(b.Param, "\x00", b.Path, "\x00", b.Posn, "\x00", b.Sink)
	})
}

// analyzed is a package fact: the package was analyzed, so a function
// without a Summary moves no per-attempt value. Packages without it (the
// standard library) get the default model.
type analyzed struct{}

func (*analyzed) AFact()         {}
func (*analyzed) String() string { return "analyzed" }
