package report

import (
	"bytes"
	"testing"
)

func TestWriteGitHub(t *testing.T) {
	fs := []Finding{
		{Rule: "IDEM001", File: "handlers/pay.go", Line: 41, Column: 9, Message: "key from uuid.NewString: 100% random",
			Related: []Related{{File: "handlers/pay.go", Line: 33, Column: 7, Message: "source"}}},
		{Rule: "IDEM006", File: "db/a,b:c.go", Line: 2, Column: 1, Message: "insert into intents\r\n::error::injected"},
	}
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, Result{Findings: fs}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=handlers/pay.go,line=41,col=9,title=IDEM001::key from uuid.NewString: 100%25 random%0A  handlers/pay.go:33:7: source\n" +
		"::error file=db/a%2Cb%3Ac.go,line=2,col=1,title=IDEM006::insert into intents%0D%0A::error::injected\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
