package series

import (
	"hash/fnv"

	"tally/internal/labels"
)

// Hash is the registry's key for a series: its name and labels, FNV-1a.
func Hash(name string, s labels.Set) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	for _, l := range s {
		h.Write([]byte{0xff})
		h.Write([]byte(l.Name))
		h.Write([]byte{0xfe})
		h.Write([]byte(l.Value))
	}
	return h.Sum64()
}
