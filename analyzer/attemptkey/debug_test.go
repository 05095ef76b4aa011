package attemptkey

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

func TestDebugFacts(t *testing.T) {
	if os.Getenv("IDEM_DEBUG") == "" {
		t.Skip()
	}
	res := analysistest.Run(t, analysistest.TestData(), Analyzer, os.Getenv("IDEM_DEBUG"))
	for _, r := range res {
		for obj, facts := range r.Facts {
			for _, f := range facts {
				fmt.Printf("%v: %#v\n", obj, f)
			}
		}
	}
}
