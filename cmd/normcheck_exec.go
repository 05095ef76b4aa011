package cmd

import (
	"fmt"
	"strconv"

	"github.com/idemcheck/idemcheck/normcheck"
)

// This file holds the flags side of `normcheck --exec`: the key command
// runner, the payload template and the audit checks are in package
// normcheck.

// execNormalizer runs the user's command once per spelling, with the
// payload's field replaced by the spelling, and takes its stdout as the key.
func execNormalizer(opts *NormcheckOptions) (*normcheck.Normalizer, error) {
	data, err := readPayloadFile(opts)
	if err != nil {
		return nil, err
	}
	payload, err := normcheck.NewPayloadTemplate(data, opts.Field)
	if err != nil {
		return nil, UsageErrorf("--payload %s: %v", opts.Payload, err)
	}
	norm := normcheck.KeyCommand{Command: opts.Exec, Timeout: opts.Timeout}.Normalizer(payload, opts.Field)
	norm.Describe = fmt.Sprintf("command %s (payload %s, field %s)", strconv.Quote(opts.Exec), opts.Payload, opts.Field)
	return norm, nil
}

func readPayloadFile(opts *NormcheckOptions) ([]byte, error) {
	data, err := readInput(opts.IO.In, opts.Payload, opts.MaxInput)
	if err != nil {
		return nil, UsageErrorf("--payload: %v", err)
	}
	return data, nil
}
