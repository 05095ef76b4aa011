// Package d has every kind of directive mistake, next to directives that
// are right.
package d

import (
	"fmt"
	"net/http"

	"github.com/google/uuid"
)

func used(req *http.Request) {
	//idemcheck:ignore IDEM001 sandbox client; the provider ignores the key
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func usedOnTheSameLine(req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.NewString()) //idemcheck:ignore IDEM001 sandbox only
}

func usedByAll(req *http.Request) {
	//idemcheck:ignore all generated test double
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func spaced(req *http.Request) {
	// idemcheck:ignore IDEM001 test double // want `"// idemcheck:ignore" is not a directive, so it suppresses nothing: write //idemcheck:ignore, without a space after //`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func noReason(req *http.Request) {
	//idemcheck:ignore IDEM001 // want `directive needs a reason: //idemcheck:ignore IDEM001 <why this is safe>`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func noRule(req *http.Request) {
	//idemcheck:ignore // want `directive needs a rule and a reason`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func unknownRule(req *http.Request) {
	//idemcheck:ignore IDEM0001 the key is fine // want `directive names no rule IDEM0001 \(did you mean IDEM001\?\): the rules are IDEM001, IDEM003`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

// The directive names IDEM003 above an IDEM001 finding: unused.
func wrongRule(req *http.Request) {
	//idemcheck:ignore IDEM003 the key is fine // want `directive matched no IDEM003 finding on its line or the next: remove it, or name the rule reported there`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func partlyUsed(req *http.Request) {
	//idemcheck:ignore IDEM001,IDEM003 sandbox // want `matched no IDEM003 finding`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func allUnused() string {
	//idemcheck:ignore all nothing to suppress // want `matched no \(any rule's\) finding`
	return fmt.Sprint("no key here")
}

func floatUsed(total float64) string {
	//idemcheck:ignore IDEM003 whole reais, exact in a float64
	idemKey := fmt.Sprintf("order:%.0f", total)
	return idemKey
}
