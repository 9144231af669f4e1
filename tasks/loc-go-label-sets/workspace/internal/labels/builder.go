package labels

import "sort"

// A Builder collects labels in any order and makes a Set of them. It can be reused
// after Reset; the sets it made stay as they were.
type Builder struct {
	buf  []Label
	seen map[string]int
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{seen: make(map[string]int)}
}

// Reset empties the builder.
func (b *Builder) Reset() {
	b.buf = b.buf[:0]
	for k := range b.seen {
		delete(b.seen, k)
	}
}

// Set adds a label, replacing an earlier one of the same name.
func (b *Builder) Set(name, value string) *Builder {
	if i, ok := b.seen[name]; ok {
		b.buf[i].Value = value
		return b
	}
	b.seen[name] = len(b.buf)
	b.buf = append(b.buf, Label{Name: name, Value: value})
	return b
}

// Del removes a label if present.
func (b *Builder) Del(name string) *Builder {
	i, ok := b.seen[name]
	if !ok {
		return b
	}
	b.buf = append(b.buf[:i], b.buf[i+1:]...)
	delete(b.seen, name)
	for n, j := range b.seen {
		if j > i {
			b.seen[n] = j - 1
		}
	}
	return b
}

// Labels returns the set built so far.
func (b *Builder) Labels() Set {
	out := make(Set, len(b.buf))
	copy(out, b.buf)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
