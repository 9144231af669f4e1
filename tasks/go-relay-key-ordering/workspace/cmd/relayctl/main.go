// Command relayctl talks to a running relayd: publish an event, show one, list them,
// or wait until everything is delivered.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", "http://localhost:8080", "relayd's address")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: relayctl [-addr URL] publish TYPE [KEY [PAYLOAD]] | status ID | list [STATE] | drain")
	}
	flag.Parse()
	if err := run(*addr, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "relayctl:", err)
		os.Exit(1)
	}
}

func run(addr string, args []string) error {
	if len(args) == 0 {
		flag.Usage()
		return fmt.Errorf("no command")
	}
	client := &http.Client{Timeout: 60 * time.Second}
	var resp *http.Response
	var err error
	switch args[0] {
	case "publish":
		if len(args) < 2 {
			return fmt.Errorf("publish needs a type")
		}
		body := map[string]any{"type": args[1]}
		if len(args) > 2 {
			body["key"] = args[2]
		}
		if len(args) > 3 {
			body["payload"] = json.RawMessage(args[3])
		}
		b, _ := json.Marshal(body)
		resp, err = client.Post(addr+"/v1/events", "application/json", bytes.NewReader(b))
	case "status":
		if len(args) != 2 {
			return fmt.Errorf("status needs an event id")
		}
		resp, err = client.Get(addr + "/v1/events/" + args[1])
	case "list":
		url := addr + "/v1/events"
		if len(args) > 1 {
			url += "?state=" + args[1]
		}
		resp, err = client.Get(url)
	case "drain":
		resp, err = client.Post(addr+"/v1/drain", "application/json", nil)
	default:
		return fmt.Errorf("unknown command %q", args[0])
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	os.Stdout.Write(out)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s", resp.Status)
	}
	return nil
}
