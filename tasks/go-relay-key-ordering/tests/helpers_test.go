package nabhidden

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"example.com/relay/internal/event"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/store"
)

// waitLimit bounds every wait for something that must happen. A correct relay makes it
// happen at once; the limit only decides how long a broken one takes to fail.
const waitLimit = 5 * time.Second

// call is one Deliver call as the sink saw it.
type call struct {
	ID      string
	Key     string
	Seq     uint64
	N       int // 1 for the first call for this event, 2 for the second...
	Err     error
	Started int // position among all starts
}

// recSink records every call, checks that no two calls for one key overlap and that a
// key's calls never go back in Seq, and can hold calls at a gate or make them fail.
type recSink struct {
	mu         sync.Mutex
	checkKeys  bool
	inflight   map[string]int
	total      int // calls in progress
	maxTotal   int
	lastSeq    map[string]uint64
	calls      map[string]int
	starts     []call
	ends       []call
	violations []string
	gates      map[string]chan struct{} // event ID -> closed when the call may go on
	behave     func(e event.Event, n int) error
	rnd        *rand.Rand
	yield      bool
}

func newSink(checkKeys bool, behave func(e event.Event, n int) error) *recSink {
	return &recSink{checkKeys: checkKeys, inflight: map[string]int{}, lastSeq: map[string]uint64{},
		calls: map[string]int{}, gates: map[string]chan struct{}{}, behave: behave, rnd: rand.New(rand.NewSource(7))}
}

func (s *recSink) Name() string { return "recording" }

// hold makes the calls for event id wait until the returned function is called.
func (s *recSink) hold(id string) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	s.gates[id] = ch
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

func (s *recSink) Deliver(ctx context.Context, e event.Event) error {
	s.mu.Lock()
	s.calls[e.ID]++
	n := s.calls[e.ID]
	if s.checkKeys && e.Key != "" {
		if s.inflight[e.Key] > 0 {
			s.violations = append(s.violations, fmt.Sprintf("key %s: %s (seq %d) called while an earlier call for the key was still running", e.Key, e.ID, e.Seq))
		}
		if e.Seq < s.lastSeq[e.Key] {
			s.violations = append(s.violations, fmt.Sprintf("key %s: %s (seq %d) called after seq %d had been", e.Key, e.ID, e.Seq, s.lastSeq[e.Key]))
		} else {
			s.lastSeq[e.Key] = e.Seq
		}
	}
	s.inflight[e.Key]++
	s.total++
	if s.total > s.maxTotal {
		s.maxTotal = s.total
	}
	s.starts = append(s.starts, call{ID: e.ID, Key: e.Key, Seq: e.Seq, N: n, Started: len(s.starts)})
	gate := s.gates[e.ID]
	spins := 0
	if s.yield {
		spins = s.rnd.Intn(4)
	}
	s.mu.Unlock()
	if gate != nil {
		<-gate
	}
	for i := 0; i < spins; i++ {
		runtime.Gosched()
	}
	var err error
	if s.behave != nil {
		err = s.behave(e, n)
	}
	s.mu.Lock()
	s.inflight[e.Key]--
	s.total--
	s.ends = append(s.ends, call{ID: e.ID, Key: e.Key, Seq: e.Seq, N: n, Err: err})
	s.mu.Unlock()
	return err
}

// atMost fails the test if more than workers calls were ever in progress at once.
func (s *recSink) atMost(t *testing.T, workers int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.maxTotal > workers {
		t.Fatalf("%d deliveries in progress at once with Workers: %d", s.maxTotal, workers)
	}
}

func (s *recSink) startedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.starts)
}

func (s *recSink) started(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[id] > 0
}

func (s *recSink) succeeded(ids ...string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok := map[string]bool{}
	for _, c := range s.ends {
		if c.Err == nil {
			ok[c.ID] = true
		}
	}
	for _, id := range ids {
		if !ok[id] {
			return false
		}
	}
	return true
}

// keyStarts is the sequence of (Seq, N) of the calls for key, in start order.
func (s *recSink) keyStarts(key string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.starts {
		if c.Key == key {
			out = append(out, fmt.Sprintf("%d#%d", c.Seq, c.N))
		}
	}
	return out
}

func (s *recSink) noViolations(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.violations) > 0 {
		n := len(s.violations)
		if n > 5 {
			s.violations = s.violations[:5]
		}
		t.Fatalf("%d ordering violations, e.g.:\n%s", n, strings.Join(s.violations, "\n"))
	}
}

// slowStore delays every final state change (Dead by dead more) and every acceptance,
// like a store that writes to disk.
type slowStore struct {
	store.Store
	final  time.Duration
	dead   time.Duration // more for Dead
	accept func(e event.Event)
}

func (s slowStore) Accept(e event.Event) error {
	if s.accept != nil {
		s.accept(e)
	}
	return s.Store.Accept(e)
}

func (s slowStore) Delivered(id string, n int) error {
	time.Sleep(s.final)
	return s.Store.Delivered(id, n)
}

func (s slowStore) Dead(id string, n int, err error) error {
	time.Sleep(s.final + s.dead)
	return s.Store.Dead(id, n, err)
}

type deadLog struct {
	mu  sync.Mutex
	ids []string
	att map[string]int
}

func (d *deadLog) handler() func(e event.Event, attempts int, err error) {
	return func(e event.Event, attempts int, err error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.att == nil {
			d.att = map[string]int{}
		}
		d.ids = append(d.ids, e.ID)
		d.att[e.ID] = attempts
	}
}

func (d *deadLog) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.ids...)
}

func newService(t *testing.T, o relay.Options) *relay.Service {
	t.Helper()
	svc, err := relay.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		done := make(chan struct{})
		go func() { _ = svc.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(waitLimit):
			t.Error("Close did not return")
		}
	})
	return svc
}

func publish(t *testing.T, svc *relay.Service, key, typ string) relay.Receipt {
	t.Helper()
	rc, err := svc.Publish(event.Event{Key: key, Type: typ, Payload: []byte(`{}`)})
	if err != nil {
		t.Fatalf("publish %s/%s: %v", key, typ, err)
	}
	return rc
}

func drain(t *testing.T, svc *relay.Service) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := svc.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v (pending %d)", err, svc.Pending())
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, waitLimit)
		}
		time.Sleep(time.Millisecond)
	}
}

func record(t *testing.T, svc *relay.Service, id string) store.Record {
	t.Helper()
	r, err := svc.Status(id)
	if err != nil {
		t.Fatalf("Status(%s): %v", id, err)
	}
	return r
}

func allFinal(t *testing.T, svc *relay.Service, ids []string) {
	t.Helper()
	var bad []string
	for _, id := range ids {
		if r := record(t, svc, id); !r.State.Final() {
			bad = append(bad, fmt.Sprintf("%s %s", id, r.State))
		}
	}
	if len(bad) > 0 {
		t.Fatalf("%d events not final: %v", len(bad), bad)
	}
}

func seqs(rcs []relay.Receipt) []string {
	out := make([]string, len(rcs))
	for i, rc := range rcs {
		out[i] = fmt.Sprintf("%d#1", rc.Seq)
	}
	return out
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}

var errUnavailable = errors.New("503 service unavailable")
