package derive

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
)

// BatchOptions tune RunBatch.
type BatchOptions struct {
	// Workers is the number of goroutines deriving keys; 0 means GOMAXPROCS.
	// Output order never depends on it.
	Workers int
	// MaxLine caps the length of one line in bytes; 0 means no cap. A
	// longer line ends the batch with a *LineTooLongError: input without
	// newlines (/dev/zero) would otherwise grow one line until memory
	// runs out.
	MaxLine int
}

// LineTooLongError ends a batch at a line longer than BatchOptions.MaxLine.
type LineTooLongError struct {
	Line  int // 1-based
	Limit int
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than %d bytes", e.Line, e.Limit)
}

// errLineTooLong is appendLine's answer to a line over its cap; the
// callers know the line's number.
var errLineTooLong = errors.New("line too long")

func tooLong(err error, line, limit int) error {
	if err == errLineTooLong {
		return &LineTooLongError{Line: line, Limit: limit}
	}
	return err
}

// BatchStats counts what RunBatch did.
type BatchStats struct {
	Lines  int // input lines answered
	Failed int // lines answered with an error
	// Warned counts the lines that got a key and a Warning (an integer
	// on a cents field named like cents); FirstWarning is the first one,
	// prefixed with its line number. Output lines never carry warnings.
	Warned       int
	FirstWarning string
}

// warn counts a line's warnings into the stats.
func (s *BatchStats) warn(lineNo int, ws []Warning) {
	if len(ws) == 0 {
		return
	}
	if s.Warned == 0 {
		s.FirstWarning = fmt.Sprintf("line %d: %s", lineNo, ws[0])
	}
	s.Warned++
}

// Batch line limits: a chunk of lines is handed to a worker at a time; a
// chunk closes at chunkLines lines or chunkBytes bytes, whichever is first.
const (
	chunkLines = 256
	chunkBytes = 256 << 10
)

type chunk struct {
	data      []byte // the chunk's lines, back to back, newlines removed
	ends      []int  // end offset of each line in data
	firstLine int    // 1-based number of the first line
	out       []byte
	failed    int
	stats     BatchStats // the chunk's warnings
	done      chan struct{}
}

// RunBatch reads JSONL intents from r, one per line:
//
//	{"tenant": "t1", "action": "pix.cobranca", "payload": {...}, "id": 7}
//
// ("payload" may also be a string holding the JSON object text, "id" is
// optional and echoed back) and writes one JSON line per input line, in
// input order: {"id":7,"key":"…"} or {"id":7,"error":"line 3: …"}. A bad
// line never stops the batch. Memory stays bounded by a few chunks and the
// longest line; lines may be many MiB long. The returned error is only for
// reading or writing failures.
func (s *Schema) RunBatch(secret []byte, r io.Reader, w io.Writer, opts BatchOptions) (BatchStats, error) {
	if len(secret) == 0 {
		return BatchStats{}, ErrEmptySecret
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var stats BatchStats
	var err error
	if workers == 1 {
		stats, err = s.runBatchSerial(secret, br, bw, opts.MaxLine)
	} else {
		stats, err = s.runBatchParallel(secret, br, bw, workers, opts.MaxLine)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return stats, err
}

func (s *Schema) runBatchSerial(secret []byte, br *bufio.Reader, bw *bufio.Writer, maxLine int) (BatchStats, error) {
	bwk := newBatchWorker(s, secret)
	var stats BatchStats
	var line, out []byte
	for {
		var ok bool
		var err error
		if line, ok, err = appendLine(br, line[:0], maxLine); !ok {
			if err == io.EOF {
				return stats, nil
			}
			return stats, tooLong(err, stats.Lines+1, maxLine)
		}
		stats.Lines++
		out, ok = bwk.answer(out[:0], line, stats.Lines)
		if !ok {
			stats.Failed++
		}
		stats.warn(stats.Lines, bwk.warnings)
		if _, werr := bw.Write(out); werr != nil {
			return stats, werr
		}
		if err != nil && err != io.EOF {
			return stats, err
		}
		line, out = shrink(line, maxKeptBuffer), shrink(out, maxKeptBuffer)
	}
}

// maxKeptBuffer is the largest buffer kept for reuse after a long line.
const maxKeptBuffer = 1 << 20

// shrink empties s for reuse, or drops it when a huge line made it big, so
// memory after a long line goes back to its steady size.
func shrink[T any](s []T, max int) []T {
	if cap(s) > max {
		return nil
	}
	return s[:0]
}

func (s *Schema) runBatchParallel(secret []byte, br *bufio.Reader, bw *bufio.Writer, workers, maxLine int) (BatchStats, error) {
	inFlight := 2 * workers
	free := make(chan *chunk, inFlight)
	for range inFlight {
		free <- &chunk{done: make(chan struct{}, 1)}
	}
	work := make(chan *chunk, inFlight)
	ordered := make(chan *chunk, inFlight)

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bwk := newBatchWorker(s, secret)
			for c := range work {
				c.out, c.failed, c.stats = c.out[:0], 0, BatchStats{}
				start := 0
				for i, end := range c.ends {
					var ok bool
					c.out, ok = bwk.answer(c.out, c.data[start:end], c.firstLine+i)
					if !ok {
						c.failed++
					}
					c.stats.warn(c.firstLine+i, bwk.warnings)
					start = end
				}
				c.done <- struct{}{}
			}
		}()
	}

	var stats BatchStats
	var writeErr error
	var stop atomic.Bool // set when output fails: stop reading
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for c := range ordered {
			<-c.done
			stats.Lines += len(c.ends)
			stats.Failed += c.failed
			if stats.Warned == 0 {
				stats.FirstWarning = c.stats.FirstWarning
			}
			stats.Warned += c.stats.Warned
			if writeErr == nil {
				if _, err := bw.Write(c.out); err != nil {
					writeErr = err
					stop.Store(true)
				}
			}
			// Do not keep a huge line's buffers for the rest of the batch.
			c.data, c.out = shrink(c.data, 4*chunkBytes), shrink(c.out, 4*chunkBytes)
			free <- c
		}
	}()

	readErr := func() error {
		lineNo := 0
		for !stop.Load() {
			c := <-free
			c.data, c.ends, c.firstLine = c.data[:0], c.ends[:0], lineNo+1
			var err error
			for len(c.ends) < chunkLines && len(c.data) < chunkBytes {
				var ok bool
				// Lines go straight into the chunk: a huge line is copied once.
				if c.data, ok, err = appendLine(br, c.data, maxLine); !ok {
					err = tooLong(err, lineNo+1, maxLine)
					break
				}
				c.ends = append(c.ends, len(c.data))
				lineNo++
				if err != nil {
					break
				}
			}
			if len(c.ends) > 0 {
				ordered <- c
				work <- c
			} else {
				free <- c
			}
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
		return nil
	}()
	close(work)
	close(ordered)
	wg.Wait()
	<-writerDone
	if readErr != nil {
		return stats, readErr
	}
	return stats, writeErr
}

// appendLine appends the next line, without its "\n" or "\r\n", to dst and
// reports whether there was one. A line of more than limit bytes (when
// limit > 0) is errLineTooLong, found before more than limit bytes of it
// are kept.
//
// A long line is gathered in blocks and copied once into a buffer of its
// exact size: growing one buffer would copy it again and again and leave
// up to twice its size behind as garbage, and a 200 MB line must cost
// about twice its size in all.
func appendLine(br *bufio.Reader, dst []byte, limit int) ([]byte, bool, error) {
	start := len(dst)
	var blocks [][]byte
	size := 0
	for {
		frag, err := br.ReadSlice('\n')
		size += len(frag)
		if limit > 0 && size > limit+len("\r\n") {
			return dst[:start], false, errLineTooLong
		}
		if blocks == nil && len(dst)+len(frag) <= max(cap(dst), smallLine) {
			dst = append(dst, frag...)
		} else {
			blocks = appendToBlocks(blocks, frag)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if blocks != nil {
			dst = joinBlocks(dst, blocks)
			blocks = nil
			if len(dst) >= hugeLine {
				// The blocks are garbage now, as big as the line: hand them
				// back before the line is worked on, or the rules' output
				// would come on top of them.
				debug.FreeOSMemory()
			}
		}
		line := dst[start:]
		if len(line) == 0 {
			if err == nil {
				err = io.EOF
			}
			return dst, false, err
		}
		if line[len(line)-1] == '\n' {
			dst = dst[:len(dst)-1]
			if len(dst) > start && dst[len(dst)-1] == '\r' {
				dst = dst[:len(dst)-1]
			}
			if limit > 0 && len(dst)-start > limit {
				return dst[:start], false, errLineTooLong
			}
			return dst, true, nil
		}
		// Last line without a final newline.
		if limit > 0 && len(line) > limit {
			return dst[:start], false, errLineTooLong
		}
		if err == nil {
			err = io.EOF
		}
		return dst, true, err
	}
}

// lineBlock is the size of the blocks a long line is gathered in; from
// hugeLine on, their memory is returned at once.
// Lines up to smallLine grow the buffer as usual.
const (
	smallLine = 64 << 10
	lineBlock = 1 << 20
	hugeLine  = 64 << 20
)

// appendToBlocks adds frag to the last block, or to a new one twice the
// size of the last, up to lineBlock.
func appendToBlocks(blocks [][]byte, frag []byte) [][]byte {
	size := smallLine
	if n := len(blocks); n > 0 {
		last := blocks[n-1]
		if cap(last)-len(last) >= len(frag) {
			blocks[n-1] = append(last, frag...)
			return blocks
		}
		size = min(2*cap(last), lineBlock)
	}
	return append(blocks, append(make([]byte, 0, max(size, len(frag))), frag...))
}

// joinBlocks returns dst followed by the blocks, in one allocation.
func joinBlocks(dst []byte, blocks [][]byte) []byte {
	n := len(dst)
	for _, b := range blocks {
		n += len(b)
	}
	out := make([]byte, len(dst), n)
	copy(out, dst)
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out
}

// batchWorker answers batch lines with its own parser, HMAC and buffers.
type batchWorker struct {
	d           *Deriver
	payload     parser // for payloads given as JSON text inside a string
	payloadText []byte // such a payload, decoded
	key         []byte
	warnings    []Warning // the last line's
}

func newBatchWorker(s *Schema, secret []byte) *batchWorker {
	d, _ := s.NewDeriver(secret)
	return &batchWorker{d: d}
}

// answer appends the output line for one input line and reports whether it
// produced a key.
func (b *batchWorker) answer(dst, line []byte, lineNo int) ([]byte, bool) {
	id, key, err := b.derive(line)
	dst = append(dst, '{')
	if id.Kind != KindInvalid {
		dst = append(dst, `"id":`...)
		dst = appendID(dst, id)
		dst = append(dst, ',')
	}
	if err != nil {
		dst = append(dst, `"error":`...)
		msg := strings.ToValidUTF8(fmt.Sprintf("line %d: %v", lineNo, err), "\ufffd")
		dst, _ = appendString(dst, msg)
		return append(dst, "}\n"...), false
	}
	dst = append(dst, `"key":"`...)
	dst = append(dst, key...)
	return append(dst, "\"}\n"...), true
}

var errBlankLine = errors.New("blank line: want a JSON object")

func (b *batchWorker) derive(line []byte) (id Value, key []byte, err error) {
	b.warnings = b.warnings[:0]
	if len(bytes.TrimSpace(line)) == 0 {
		return Value{}, nil, errBlankLine
	}
	b.d.release()
	b.payload.release()
	obj, err := b.d.parser.parseDocument(line)
	if err != nil {
		return Value{}, nil, err
	}
	if obj.Kind != KindObject {
		return Value{}, nil, fmt.Errorf("want a JSON object, got %s", describeValue(obj))
	}
	var tenant, action, payload Value
	var seen [3]bool
	unknown := -1
	for i, m := range obj.Members() {
		switch {
		case m.nameIs("tenant"):
			tenant, seen[0] = m.Value, true
		case m.nameIs("action"):
			action, seen[1] = m.Value, true
		case m.nameIs("payload"):
			payload, seen[2] = m.Value, true
		case m.nameIs("id"):
			id = m.Value
		case unknown < 0:
			unknown = i
		}
	}
	if unknown >= 0 { // reported after the loop so the answer still carries the id
		return id, nil, refusal(ReasonUnknownMember, fmt.Errorf("unknown key %s (want tenant, action, payload, id)", quoteValue(obj.Members()[unknown].Name())))
	}
	for i, name := range [3]string{"tenant", "action", "payload"} {
		if !seen[i] {
			return id, nil, fmt.Errorf("missing %q", name)
		}
	}
	if tenant.Kind != KindString {
		return id, nil, fmt.Errorf("tenant: want a string, got %s", describeValue(tenant))
	}
	if action.Kind != KindString {
		return id, nil, fmt.Errorf("action: want a string, got %s", describeValue(action))
	}
	ca, err := b.d.lookupActionValue(action)
	if err != nil {
		return id, nil, err
	}
	tenantJSON, err := b.d.tenantJSON(tenant)
	if err != nil {
		return id, nil, err
	}
	if payload.Kind == KindString {
		// Decoded once into a reused buffer: the payload's values point into it.
		b.payloadText = payload.appendText(shrink(b.payloadText, maxKeptBuffer))
		if payload, err = parsePayload(&b.payload, b.payloadText); err != nil {
			return id, nil, err
		}
	} else if payload.Kind != KindObject {
		return id, nil, fmt.Errorf("payload: want a JSON object, got %s", describeValue(payload))
	}
	b.key, err = b.d.appendKeyValue(b.key[:0], ca, tenantJSON, payload, false)
	if err == nil && len(ca.cents) > 0 {
		b.warnings = ca.warnings(b.warnings, payload, &b.d.norm)
	}
	return id, b.key, err
}

// appendID echoes an id in canonical form.
func appendID(dst []byte, id Value) []byte {
	switch {
	case id.Kind == KindNumber, id.Kind == KindString && !id.escaped:
		// Already canonical: unescaped strings hold no control characters.
		return append(dst, id.Raw...)
	}
	out, err := AppendCanonical(dst, id.Interface())
	if err != nil {
		return append(dst, "null"...)
	}
	return out
}
