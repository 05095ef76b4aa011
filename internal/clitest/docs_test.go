package clitest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What the docs say a stop by Ctrl-C exits with is what
// TestSignalsStopEverythingStarted sees: 130 (128 + SIGINT), never 2.
func TestDocsSayCtrlCExits130(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	// "exits 2", "exit with 2", "exits 128 + the signal's number".
	exitsWith := regexp.MustCompile(`\bexits? (?:with )?(\d+)`)
	claims := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(string(data)), " ")
		for _, sentence := range regexp.MustCompile(`\.\s`).Split(flat, -1) {
			if !strings.Contains(sentence, "Ctrl-C") {
				continue
			}
			for _, m := range exitsWith.FindAllStringSubmatch(sentence, -1) {
				claims++
				if m[1] != "130" && m[1] != "128" {
					t.Errorf("%s: says Ctrl-C exits %s:\n%s", filepath.Base(f), m[1], sentence)
				}
			}
		}
	}
	if claims == 0 {
		t.Fatal("no doc says what Ctrl-C exits with: nothing checked")
	}
}
