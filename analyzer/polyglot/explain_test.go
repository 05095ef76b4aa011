//go:build cgo

package polyglot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/polyglot"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/frontend"
	"github.com/idemcheck/idemcheck/analyzer/suite"
)

// The names the rules' examples use without defining them, as a reader
// of the docs would have them.
var prelude = map[string]string{
	"python": `import hashlib
import hmac
import json
import os
import uuid

import requests
import stripe
from celery import shared_task

API = "https://api.provider.example/v1/charges"
SECRET = os.environ["IDEMPOTENCY_HMAC_KEY"].encode()

`,
	"typescript": `import { createHash, createHmac, randomUUID } from "crypto";
import { Pool } from "pg";
import Stripe from "stripe";

type Order = { cents: number; intent: string };
const stripe = new Stripe(process.env.STRIPE_KEY!);
const API = "https://api.provider.example/v1/charges";
const SECRET = process.env.IDEMPOTENCY_HMAC_KEY!;

`,
}

var exts = map[string]string{"python": ".py", "typescript": ".ts"}

// TestRuleExamples parses every Python and TypeScript example of every
// rule's doc (--explain, docs/rules.md) without a syntax error, and lints
// it: the Bad example gets the rule's finding, the Good one none at all.
func TestRuleExamples(t *testing.T) {
	n := 0
	for _, r := range suite.Rules() {
		for _, ex := range r.Examples {
			for _, c := range []struct {
				name, code string
				want       bool
			}{{"bad", ex.Bad, true}, {"good", ex.Good, false}} {
				t.Run(r.ID+"/"+ex.Lang+"/"+c.name, func(t *testing.T) {
					n++
					dir := t.TempDir()
					src := prelude[ex.Lang] + c.code + "\n"
					path := filepath.Join(dir, "example"+exts[ex.Lang])
					if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
						t.Fatal(err)
					}
					f, err := frontend.Parse(path, []byte(src))
					if err != nil || f.SyntaxErrors > 0 {
						t.Fatalf("example does not parse (%v, %d syntax errors):\n%s", err, f.SyntaxErrors, src)
					}
					res, err := polyglot.Run(polyglot.Options{Dir: dir, Languages: []string{ex.Lang}})
					if err != nil {
						t.Fatal(err)
					}
					var rules []string
					for _, f := range res.Findings {
						rules = append(rules, f.Rule+" "+f.Message)
					}
					got := strings.Contains(strings.Join(rules, "\n"), r.ID+" ")
					switch {
					case c.want && !got:
						t.Errorf("Bad example has no %s finding (findings: %q):\n%s", r.ID, rules, c.code)
					case !c.want && len(rules) > 0:
						t.Errorf("Good example has findings %q:\n%s", rules, c.code)
					}
				})
			}
		}
	}
	if n < 24 {
		t.Errorf("%d examples, want the Python and TypeScript examples of IDEM001, 002, 003, 004, 005 and 007 (24)", n)
	}
}
