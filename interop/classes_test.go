package interop

// class is a documented kind of difference between the two SDKs, matched by
// the shape of the document (never by its id). allow says which outcome
// flags it explains.
type class struct {
	name    string
	allow   int
	match   func(v any) bool
}

var classes = []*class{}

func classOf(v any, flags int) *class {
	for _, c := range classes {
		if flags&^c.allow == 0 && c.match(v) {
			return c
		}
	}
	return nil
}

func classByName(n string) *class {
	for _, c := range classes {
		if c.name == n {
			return c
		}
	}
	return nil
}
