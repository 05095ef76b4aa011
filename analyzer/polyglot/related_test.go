//go:build cgo

package polyglot_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/polyglot"
)

// TestRelatedPositions: a finding at the sink names where its cause is:
// IDEM004 the serialization of the whole payload, and one IDEM001 per sink
// lists every per-attempt value that reaches it; a float inside the
// payload serialized whole is IDEM004's, not a second finding.
func TestRelatedPositions(t *testing.T) {
	dir := t.TempDir()
	src := `import { createHash } from "crypto";
import { onSchedule } from "firebase-functions/v2/scheduler";

export async function forward(event: string, payload: Record<string, unknown>) {
  const minute = Math.floor(Date.now() / 60000);
  const key = createHash("sha256")
    .update(event + ":" + minute + ":" + JSON.stringify(payload))
    .digest("hex");
  await fetch("https://engine.example/events", { method: "POST", body: JSON.stringify({ event, payload, idempotencyKey: key }) });
}

export const tick = onSchedule("every 5 minutes", async () => {
  await forward("tick", { at: new Date().toISOString(), balance: parseFloat(process.env.BALANCE!) });
});
`
	if err := os.WriteFile(filepath.Join(dir, "forward.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := polyglot.Run(polyglot.Options{Dir: dir, Languages: []string{"typescript"}})
	if err != nil {
		t.Fatal(err)
	}
	idem001, payloadAt := 0, false
	for _, f := range res.Findings {
		switch f.Rule {
		case "IDEM001":
			idem001++
		case "IDEM003":
			t.Errorf("IDEM003 for a float inside the serialized payload: %+v", f)
		case "IDEM004":
			for _, r := range f.Related {
				if r.Line == 7 {
					payloadAt = true
				}
			}
		}
	}
	if idem001 != 1 {
		t.Errorf("IDEM001 findings at the one sink: %d, want 1 (%+v)", idem001, res.Findings)
	}
	if !payloadAt {
		t.Errorf("IDEM004 does not name the serialization on line 7: %+v", res.Findings)
	}
}
