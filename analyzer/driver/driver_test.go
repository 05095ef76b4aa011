package driver

import (
	"strings"
	"testing"
)

func TestIsVetToolInvocation(t *testing.T) {
	yes := [][]string{{"-V=full"}, {"-flags"}, {"/tmp/b001/vet.cfg"}, {"-json", "-IDEM001.keypattern=x", "/tmp/vet.cfg"}}
	no := [][]string{nil, {"lint"}, {"lint", "./..."}, {"lint", "x.cfg"}, {"--version"}}
	for _, a := range yes {
		if !IsVetToolInvocation(a) {
			t.Errorf("IsVetToolInvocation(%q) = false", a)
		}
	}
	for _, a := range no {
		if IsVetToolInvocation(a) {
			t.Errorf("IsVetToolInvocation(%q) = true", a)
		}
	}
}

func TestParse(t *testing.T) {
	out := `{
	"example.com/m/pay": {
		"IDEM001": [
			{"category": "IDEM001", "posn": "/work/m/pay/pay.go:10:16", "end": "/work/m/pay/pay.go:10:16", "message": "idempotency key built from time.Now",
			 "related": [{"posn": "/work/m/pay/pay.go:10:74", "end": "", "message": "time.Now: clock reading"}]}
		]
	}
}
{
	"example.com/m/other": {
		"IDEM001": [
			{"posn": "/elsewhere/x.go:3:1", "end": "", "message": "m"}
		]
	}
}
`
	fs, err := parse(strings.NewReader(out), "/work/m")
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("got %d findings", len(fs))
	}
	f := fs[0]
	if f.Rule != "IDEM001" || f.File != "pay/pay.go" || f.Line != 10 || f.Column != 16 || len(f.Related) != 1 || f.Related[0].Column != 74 {
		t.Errorf("first finding = %+v", f)
	}
	if fs[1].File != "/elsewhere/x.go" || fs[1].Rule != "IDEM001" {
		t.Errorf("second finding = %+v", fs[1])
	}

	_, err = parse(strings.NewReader(`{"p": {"IDEM001": {"error": "boom"}}}`), "/")
	if _, ok := err.(*LoadError); !ok {
		t.Errorf("analysis error: got %v, want *LoadError", err)
	}
}

func TestSplitPosn(t *testing.T) {
	cases := []struct {
		in        string
		file      string
		line, col int
	}{
		{"/w/a/b.go:3:4", "a/b.go", 3, 4},
		{"C:/w/a.go:3:4", "C:/w/a.go", 3, 4},
		{"/w/a.go:7", "a.go", 7, 0},
	}
	for _, c := range cases {
		f, l, col := splitPosn(c.in, "/w")
		if f != c.file || l != c.line || col != c.col {
			t.Errorf("splitPosn(%q) = %q %d %d", c.in, f, l, col)
		}
	}
}

func TestVersionLine(t *testing.T) {
	a, err := VersionLine()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := VersionLine()
	if a != b || !strings.Contains(a, " version devel comments-go-here buildID=") {
		t.Errorf("VersionLine() = %q, then %q", a, b)
	}
}
