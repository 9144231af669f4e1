// Command nabprobe is the probe of go-relay-key-ordering's hidden tests: a program built
// with the agent's module as the sandbox user (/nab/probes/build.sh, under the race
// detector) that drives the relay's packages as the tests ask and answers with what it
// saw. It holds no assertion and no expected value: the tests (pytest, run as the verifier
// user) decide.
//
// One request per line on stdin, a JSON object {"op": ..., ...}; one answer per line, a
// JSON object, on the descriptor that was standard output when the probe started.
// Standard output itself is pointed at standard error first, so nothing the code under
// test prints can pass for an answer. A panic while serving a request is answered with
// {"panic": ...}, a request the probe does not understand with {"probe_error": ...}.
//
// The operations are in world.go (a relay.Service with a recording sink, gates, a fake
// clock and slow or gated stores, as the hidden tests drive it) and units.go (the
// workspace's own tests, as shipped, turned into observations).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
)

type obs = map[string]any

type request struct {
	Op string `json:"op"`

	// new
	Workers    int        `json:"workers"`
	Ordering   string     `json:"ordering"`
	Retry      *retrySpec `json:"retry"`
	FakeClock  bool       `json:"fake_clock"`
	Store      *storeSpec `json:"store"`
	Sink       *sinkSpec  `json:"sink"`
	DeadLetter bool       `json:"dead_letter"`
	IDPrefix   string     `json:"id_prefix"`

	// events and waits
	ID         string      `json:"id"`
	IDs        []string    `json:"ids"`
	Key        string      `json:"key"`
	Type       string      `json:"type"`
	Payload    *string     `json:"payload"`
	Events     [][2]string `json:"events"`
	Goroutines int         `json:"goroutines"`
	Each       int         `json:"each"`
	Cond       string      `json:"cond"`
	N          int         `json:"n"`
	TimeoutMS  int64       `json:"timeout_ms"`
	MS         int64       `json:"ms"`

	// units, config and HTTP
	Name   string `json:"name"`
	Text   string `json:"text"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Body   string `json:"body"`
}

func main() {
	fd, err := syscall.Dup(1)
	if err == nil {
		err = syscall.Dup3(2, 1, 0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "nab probe: cannot set standard output aside:", err)
		os.Exit(2)
	}
	syscall.CloseOnExec(fd)
	out := bufio.NewWriter(os.NewFile(uintptr(fd), "answers"))
	in := bufio.NewReader(os.Stdin)
	w := newWorld()
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			b, merr := json.Marshal(serve(w, line))
			if merr != nil {
				b, _ = json.Marshal(obs{"probe_error": "answer: " + merr.Error()})
			}
			out.Write(append(b, '\n'))
			out.Flush()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "nab probe: reading a request:", err)
			break
		}
	}
	// Returning from main runs the race detector's finish: a data race seen while the
	// probe ran makes the process exit with status 66 (GORACE exitcode), after the reports
	// it printed on standard error.
}

func serve(w *world, line []byte) (answer obs) {
	var req request
	dec := json.NewDecoder(strings.NewReader(string(line)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return obs{"probe_error": "request: " + err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			answer = obs{"panic": fmt.Sprint(r), "stack": string(debug.Stack())}
		}
	}()
	a, err := w.handle(&req)
	if err != nil {
		return obs{"probe_error": err.Error()}
	}
	if a == nil {
		a = obs{}
	}
	return a
}

// raceErrors is how many data races the race detector has reported in this process so far
// (the probe is always built with -race).
func raceErrors() int { return runtime.RaceErrors() }
