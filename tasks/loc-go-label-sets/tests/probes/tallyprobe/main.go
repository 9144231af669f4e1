// Command nabprobe is the probe of loc-go-label-sets' hidden tests: a program built
// with the agent's module as the sandbox user (/nab/probes/build.sh) that runs one
// interval of tally as the tests ask and answers with what it saw. It holds no
// assertion and no expected value: the tests (pytest, run as the verifier user) decide.
//
//	probe CONFIG CAPTURE
//
// It answers with one JSON object on the descriptor that was standard output when it
// started: {"export": ..., "errors": [...]} or {"error": ...}. Standard output itself is
// pointed at standard error first, so nothing the code under test prints can pass for
// an answer; a panic is answered with {"panic": ...}.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"syscall"

	"tally/internal/app"
	"tally/internal/capture"
	"tally/internal/config"
)

type obs = map[string]any

func main() {
	fd, err := syscall.Dup(1)
	if err == nil {
		err = syscall.Dup3(2, 1, 0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "nab probe: cannot set standard output aside:", err)
		os.Exit(2)
	}
	out := os.NewFile(uintptr(fd), "answers")
	answer := run(os.Args[1:])
	data, _ := json.Marshal(answer)
	out.Write(append(data, '\n'))
	out.Close()
}

func run(args []string) (answer obs) {
	defer func() {
		if p := recover(); p != nil {
			answer = obs{"panic": fmt.Sprint(p), "stack": string(debug.Stack())}
		}
	}()
	if len(args) != 2 {
		return obs{"error": "usage: probe CONFIG CAPTURE"}
	}
	cfg, err := config.Load(args[0])
	if err != nil {
		return obs{"error": "config: " + err.Error()}
	}
	a, err := app.New(cfg)
	if err != nil {
		return obs{"error": "app.New: " + err.Error()}
	}
	f, err := os.Open(args[1])
	if err != nil {
		return obs{"error": err.Error()}
	}
	recs, err := capture.Read(f)
	f.Close()
	if err != nil {
		return obs{"error": "capture: " + err.Error()}
	}
	errs := []string{}
	for _, r := range recs {
		if err := a.Ingest(r); err != nil {
			errs = append(errs, err.Error())
		}
	}
	var b bytes.Buffer
	if err := a.Export(&b); err != nil {
		return obs{"error": "export: " + err.Error()}
	}
	return obs{"export": b.String(), "errors": errs}
}
