// Command shapegen writes a Go module of one program shape and size for
// analyzer/bench/shapes.sh, which times idemcheck lint against go vet on
// it. In every shape a per-attempt key (time.Now) travels through n
// functions to an Idempotency-Key header, so lint has one finding to
// make however large the program.
//
//	go run ./analyzer/bench/shapegen -shape chain2 -n 5000 -dir /tmp/m
//
// Shapes: chain1…chain4 (a chain of calls passing 1 to 4 parameters),
// fanout (one function calling n helpers), fanin (n functions calling one
// helper), recursion (a ring of n mutually recursive functions),
// interfaces (n implementations called through an interface), closures
// (each link calls the next through a func literal), higherorder (each
// link hands the next to an apply function) and methodvalues (each link
// calls the next through a method value).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Shapes lists the shapes in the order the benchmark prints them.
var Shapes = []string{"chain1", "chain2", "chain3", "chain4", "fanout", "fanin", "recursion", "interfaces", "closures", "higherorder", "methodvalues"}

func main() {
	shape := flag.String("shape", "chain1", "program shape: "+strings.Join(Shapes, ", "))
	n := flag.Int("n", 1000, "number of functions")
	dir := flag.String("dir", "", "directory to write the module into (required)")
	flag.Parse()
	if *dir == "" || *n < 2 {
		fmt.Fprintln(os.Stderr, "shapegen: give -dir DIR and -n N (at least 2)")
		os.Exit(2)
	}
	src, ok := generate(*shape, *n)
	if !ok {
		fmt.Fprintf(os.Stderr, "shapegen: unknown shape %q: use one of %s\n", *shape, strings.Join(Shapes, ", "))
		os.Exit(2)
	}
	pkg := filepath.Join(*dir, "shape")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "shapegen:", err)
		os.Exit(2)
	}
	files := map[string]string{
		filepath.Join(*dir, "go.mod"):  "module example.com/shape\n\ngo 1.22\n",
		filepath.Join(pkg, "shape.go"): src,
	}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "shapegen:", err)
			os.Exit(2)
		}
	}
}

const header = "package shape\n\nimport (\n\t\"net/http\"\n\t\"time\"\n)\n\nvar _ = time.Now\n\n"

func generate(shape string, n int) (string, bool) {
	var b strings.Builder
	b.WriteString(header)
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	switch shape {
	case "chain1", "chain2", "chain3", "chain4":
		k := int(shape[len(shape)-1] - '0')
		var params, args, first []string
		for j := 0; j < k; j++ {
			params = append(params, fmt.Sprintf("a%d string", j))
			args = append(args, fmt.Sprintf("a%d", j))
			first = append(first, "time.Now().String()")
		}
		p("func Start(req *http.Request) { F0(req, %s) }\n", strings.Join(first, ", "))
		for i := 0; i < n-1; i++ {
			p("func F%d(req *http.Request, %s) { F%d(req, %s) }\n", i, strings.Join(params, ", "), i+1, strings.Join(args, ", "))
		}
		p("func F%d(req *http.Request, %s) { req.Header.Set(\"Idempotency-Key\", a0) }\n", n-1, strings.Join(params, ", "))
	case "fanout":
		p("func Start(req *http.Request) {\n\tk := time.Now().String()\n")
		for i := 0; i < n-1; i++ {
			p("\tL%d(req, k)\n", i)
		}
		p("}\n")
		for i := 0; i < n-1; i++ {
			p("func L%d(req *http.Request, k string) { req.Header.Set(\"X-Leaf\", k+\"%d\") }\n", i, i)
		}
		p("func init() { Sink(nil, time.Now().String()) }\n")
		p("func Sink(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n")
	case "fanin":
		p("func Sink(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n")
		p("func C0(req *http.Request) { Sink(req, time.Now().String()) }\n")
		for i := 1; i < n-1; i++ {
			p("func C%d(req *http.Request, k string) { Sink(req, k) }\n", i)
		}
	case "recursion":
		p("func Start(req *http.Request) { R0(req, time.Now().String(), 3) }\n")
		for i := 0; i < n-1; i++ {
			next := (i + 1) % (n - 1)
			p("func R%d(req *http.Request, k string, d int) {\n\tif d > 0 {\n\t\tR%d(req, k, d-1)\n\t\treturn\n\t}\n", i, next)
			if i == n-2 {
				p("\treq.Header.Set(\"Idempotency-Key\", k)\n")
			}
			p("}\n")
		}
	case "interfaces":
		p("type Sender interface{ Send(req *http.Request, k string) }\n")
		p("func Start(s Sender, req *http.Request) { s.Send(req, time.Now().String()) }\n")
		for i := 0; i < n-1; i++ {
			p("type T%d struct{}\n", i)
			if i == 0 {
				p("func (T%d) Send(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n", i)
			} else {
				p("func (T%d) Send(req *http.Request, k string) { req.Header.Set(\"X-Other\", k) }\n", i)
			}
		}
	case "closures":
		p("func Start(req *http.Request) { F0(req, time.Now().String()) }\n")
		for i := 0; i < n-1; i++ {
			p("func F%d(req *http.Request, k string) {\n\tf := func(x string) { F%d(req, x) }\n\tf(k)\n}\n", i, i+1)
		}
		p("func F%d(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n", n-1)
	case "higherorder":
		p("func apply(f func(*http.Request, string), req *http.Request, k string) { f(req, k) }\n")
		p("func Start(req *http.Request) { F0(req, time.Now().String()) }\n")
		for i := 0; i < n-2; i++ {
			p("func F%d(req *http.Request, k string) { apply(F%d, req, k) }\n", i, i+1)
		}
		p("func F%d(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n", n-2)
	case "methodvalues":
		p("type T struct{}\n")
		p("func Start(req *http.Request) { T{}.M0(req, time.Now().String()) }\n")
		for i := 0; i < n-1; i++ {
			p("func (t T) M%d(req *http.Request, k string) {\n\tg := t.M%d\n\tg(req, k)\n}\n", i, i+1)
		}
		p("func (T) M%d(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n", n-1)
	default:
		return "", false
	}
	return b.String(), true
}
