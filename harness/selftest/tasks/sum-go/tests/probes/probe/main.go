// Observations only: for each line of comma-separated integers on stdin, one JSON line with
// the workspace's Sum. The protocol goes to a copy of stdout taken before any code of the
// workspace could print.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"syscall"

	"sumlib"
)

func main() {
	fd, err := syscall.Dup(1)
	if err != nil {
		os.Exit(3)
	}
	out := os.NewFile(uintptr(fd), "protocol")
	enc := json.NewEncoder(out)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var values []int64
		for _, f := range strings.Split(in.Text(), ",") {
			v, _ := strconv.ParseInt(f, 10, 64)
			values = append(values, v)
		}
		enc.Encode(map[string]int64{"value": sumlib.Sum(values)})
	}
}
