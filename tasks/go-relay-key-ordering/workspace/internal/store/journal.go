package store

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"example.com/relay/internal/event"
)

// Journal wraps a Store and appends one JSON line per change to W, for audits and for
// `relayctl replay`. A failed write is reported by Err and does not fail the change.
type Journal struct {
	Inner Store
	W     io.Writer

	mu  sync.Mutex
	err error
}

type journalLine struct {
	At       time.Time `json:"at"`
	Op       string    `json:"op"`
	ID       string    `json:"id"`
	Key      string    `json:"key,omitempty"`
	Seq      uint64    `json:"seq,omitempty"`
	Attempts int       `json:"attempts,omitempty"`
	Error    string    `json:"error,omitempty"`
}

func (j *Journal) write(l journalLine) {
	l.At = time.Now().UTC()
	b, err := json.Marshal(l)
	j.mu.Lock()
	defer j.mu.Unlock()
	if err == nil {
		_, err = j.W.Write(append(b, '\n'))
	}
	if err != nil && j.err == nil {
		j.err = err
	}
}

// Err is the first write error, if any.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (j *Journal) Accept(e event.Event) error {
	if err := j.Inner.Accept(e); err != nil {
		return err
	}
	j.write(journalLine{Op: "accept", ID: e.ID, Key: e.Key, Seq: e.Seq})
	return nil
}

func (j *Journal) Attempted(id string, n int, err error) error {
	if e := j.Inner.Attempted(id, n, err); e != nil {
		return e
	}
	j.write(journalLine{Op: "attempt", ID: id, Attempts: n, Error: errText(err)})
	return nil
}

func (j *Journal) Delivered(id string, n int) error {
	if err := j.Inner.Delivered(id, n); err != nil {
		return err
	}
	j.write(journalLine{Op: "delivered", ID: id, Attempts: n})
	return nil
}

func (j *Journal) Dead(id string, n int, err error) error {
	if e := j.Inner.Dead(id, n, err); e != nil {
		return e
	}
	j.write(journalLine{Op: "dead", ID: id, Attempts: n, Error: errText(err)})
	return nil
}

func (j *Journal) Get(id string) (Record, error) { return j.Inner.Get(id) }
func (j *Journal) List(state *State) []Record    { return j.Inner.List(state) }
