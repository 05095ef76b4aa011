// Package asynq is a stub of github.com/hibiken/asynq for the analyzer's
// tests: the task, its options and the client that enqueues it.
package asynq

import "context"

type Task struct {
	typename string
	payload  []byte
	opts     []Option
}

func NewTask(typename string, payload []byte, opts ...Option) *Task {
	return &Task{typename: typename, payload: payload, opts: opts}
}

func (t *Task) Payload() []byte { return t.payload }

type Option interface{ String() string }

type taskIDOption string

func (o taskIDOption) String() string { return string(o) }

// TaskID sets the task's id: asynq refuses to enqueue a second task with
// an id it holds (ErrTaskIDConflict), so the id deduplicates the enqueue.
func TaskID(id string) Option { return taskIDOption(id) }

type queueOption string

func (o queueOption) String() string { return string(o) }

func Queue(name string) Option { return queueOption(name) }

type TaskInfo struct{ ID string }

type Client struct{}

func (c *Client) EnqueueContext(ctx context.Context, t *Task, opts ...Option) (*TaskInfo, error) {
	return &TaskInfo{}, nil
}
