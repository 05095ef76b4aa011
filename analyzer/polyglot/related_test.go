//go:build cgo

package polyglot_test

import (
	"os"
	"path/filepath"
	"strings"
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

// TestRelatedEveryCaller: handlers that each draw a key and hand it to one
// shared charge helper get one finding at the helper's sink, which names
// every handler's call: each is a place to fix.
func TestRelatedEveryCaller(t *testing.T) {
	dir := t.TempDir()
	src := `import { randomUUID } from "crypto";
import express from "express";

async function charge(amount: number, key: string) {
  await fetch("https://pay.example/charges", { method: "POST", headers: { "Idempotency-Key": key }, body: String(amount) });
}

const app = express();
app.post("/a", async (req, res) => {
  await charge(1, randomUUID());
  res.sendStatus(200);
});
app.post("/b", async (req, res) => {
  await charge(2, randomUUID());
  res.sendStatus(200);
});
`
	if err := os.WriteFile(filepath.Join(dir, "charge.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := polyglot.Run(polyglot.Options{Dir: dir, Languages: []string{"typescript"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("findings: %+v, want one IDEM001 at the helper's sink", res.Findings)
	}
	lines := map[int]bool{}
	for _, r := range res.Findings[0].Related {
		lines[r.Line] = true
	}
	if !lines[10] || !lines[14] {
		t.Errorf("related positions %+v do not name both handlers' calls (lines 10 and 14)", res.Findings[0].Related)
	}
}

// TestRelatedArgumentLine: a key handed to a helper in a call written over
// several lines is shown where the argument is, not where the call starts.
func TestRelatedArgumentLine(t *testing.T) {
	dir := t.TempDir()
	src := `import time

import requests
from celery import shared_task


def charge(amount, idempotency_key):
    requests.post("https://pay.example/charges", json={"amount": amount}, headers={"Idempotency-Key": idempotency_key})


@shared_task
def renew(sub_id):
    charge(
        100,
        idempotency_key=f"sub-{sub_id}-{int(time.time())}",
    )
`
	if err := os.WriteFile(filepath.Join(dir, "renew.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := polyglot.Run(polyglot.Options{Dir: dir, Languages: []string{"python"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("findings: %+v, want one IDEM001", res.Findings)
	}
	for _, r := range res.Findings[0].Related {
		if strings.HasPrefix(r.Message, "passed to") {
			if r.Line != 15 {
				t.Errorf("passed to charge at line %d, want the argument's line 15", r.Line)
			}
			return
		}
	}
	t.Errorf("no 'passed to' position in %+v", res.Findings[0].Related)
}
