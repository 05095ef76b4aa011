// Package snowflake is a look-alike of a snowflake id generator: a node
// combines the clock with a per-millisecond sequence.
package snowflake

import (
	"strconv"
	"sync"
	"time"
)

type ID int64

type Node struct {
	mu   sync.Mutex
	time int64
	node int64
	step int64
}

func NewNode(n int64) (*Node, error) { return &Node{node: n}, nil }

// Generate returns a new id.
func (n *Node) Generate() ID {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := time.Now().UnixMilli()
	if now == n.time {
		n.step = (n.step + 1) & 4095
	} else {
		n.step = 0
	}
	n.time = now
	return ID(now<<22 | n.node<<12 | n.step)
}

func (id ID) String() string { return strconv.FormatInt(int64(id), 10) }
