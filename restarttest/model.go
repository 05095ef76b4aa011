package restarttest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// fakeModel is an OpenAI-compatible chat endpoint that answers each call with
// the next line of the replies file, cycling, so each attempt can see a
// different extraction, as real models do. The cycle restarts every round.
type fakeModel struct {
	srv     *http.Server
	ln      net.Listener
	replies []string

	mu    sync.Mutex
	calls int
}

// ParseModelReplies splits a replies file into its non-empty lines.
func ParseModelReplies(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

func startModel(replies []string) (*fakeModel, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fake model: %w", err)
	}
	m := &fakeModel{ln: ln, replies: replies}
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

func (m *fakeModel) URL() string { return "http://" + m.ln.Addr().String() }

func (m *fakeModel) reset() {
	m.mu.Lock()
	m.calls = 0
	m.mu.Unlock()
}

func (m *fakeModel) callCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

func (m *fakeModel) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = m.srv.Shutdown(ctx)
	_ = m.srv.Close()
}

func (m *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, `{"error":{"message":"POST /v1/chat/completions"}}`)
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	m.mu.Lock()
	n := m.calls
	m.calls++
	m.mu.Unlock()
	content := ""
	if len(m.replies) > 0 {
		content = m.replies[n%len(m.replies)]
	}
	resp := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-%d", n+1),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   "idemcheck-fake-model",
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": content},
			"finish_reason": "stop",
		}},
		"usage": map[string]int{"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
	}
	b, _ := json.Marshal(resp)
	writeJSON(w, http.StatusOK, string(b))
}
