package history

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
)

// A field followed through the versions: the timeline's / and kedit
// history --path show one field's value in each version, so that a class
// sees foo go "1" → "2" → "mine".

// Path names one field of an object: .data.foo, .data["nginx.conf"],
// .spec.containers[0].image. Made by ParsePath.
type Path struct {
	text  string
	steps []pathStep
}

// pathStep is a map key, or a list index when index >= 0.
type pathStep struct {
	key   string
	index int
}

// ParsePath reads a field path: keys after dots (.data.foo), a key
// with dots or brackets in double or single quotes in brackets
// (.data["nginx.conf"]), a list's element by its index ([0]). The first
// dot may be left out.
func ParsePath(s string) (Path, error) {
	in := strings.TrimSpace(s)
	p := Path{text: in}
	rest := in
	if rest != "" && rest[0] != '.' && rest[0] != '[' {
		rest = "." + rest
	}
	bad := func(why string) (Path, error) {
		// The path as typed, between quotes but not escaped: whoever
		// shows the error escapes it, once.
		return Path{}, fmt.Errorf("\"%s\" is not a field path such as .data.foo or .metadata.labels[\"app.kubernetes.io/name\"]: %s", s, why)
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return bad("a dot with no key after it")
			}
			p.steps = append(p.steps, pathStep{key: rest[:end], index: -1})
			rest = rest[end:]
		case '[':
			if strings.HasPrefix(rest, `["`) {
				// A key written as a JSON string, which may hold a ].
				var key string
				dec := json.NewDecoder(strings.NewReader(rest[1:]))
				if err := dec.Decode(&key); err != nil {
					return bad("the key in brackets is not a quoted string")
				}
				after := rest[1+int(dec.InputOffset()):]
				if !strings.HasPrefix(after, "]") {
					return bad("a [ with no ]")
				}
				p.steps = append(p.steps, pathStep{key: key, index: -1})
				rest = after[1:]
				continue
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return bad("a [ with no ]")
			}
			inner := rest[1:end]
			if len(inner) >= 2 && inner[0] == '\'' && inner[len(inner)-1] == '\'' {
				p.steps = append(p.steps, pathStep{key: inner[1 : len(inner)-1], index: -1})
			} else {
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return bad("[" + inner + "] is neither an index nor a quoted key")
				}
				p.steps = append(p.steps, pathStep{index: n})
			}
			rest = rest[end+1:]
		default:
			return bad("expected . or [ at " + strconv.Quote(rest))
		}
	}
	if len(p.steps) == 0 {
		return bad("it names no field")
	}
	return p, nil
}

// String is the path as it was given.
func (p Path) String() string { return p.text }

// IsZero reports whether p names no field (the zero Path).
func (p Path) IsZero() bool { return len(p.steps) == 0 }

// PathState says what a version holds at a path.
type PathState string

const (
	// PathSet: the field is there (its value may be null).
	PathSet PathState = "set"
	// PathAbsent: the version has no such field.
	PathAbsent PathState = "absent"
	// PathDeleted: the version is the object's deletion.
	PathDeleted PathState = "deleted"
	// PathNotRecorded: the audit log holds no object of this write.
	PathNotRecorded PathState = "not recorded"
)

// PathValue is a path's value in one version: Value is set only when
// State is PathSet. A Secret's values are diff.SecretMask.
type PathValue struct {
	State PathState
	Value any
}

// Text is the value for a terminal, escaped: a string in double quotes,
// so that "" is seen as a value, another value as JSON, else the state
// (absent, deleted, not recorded).
func (v PathValue) Text() escape.Text {
	if v.State != PathSet {
		return escape.Safe(string(v.State))
	}
	if s, ok := v.Value.(string); ok {
		return escape.SafeQuoted(s)
	}
	b, err := json.Marshal(v.Value)
	if err != nil {
		return escape.Safe(fmt.Sprint(v.Value))
	}
	return escape.Safe(string(b))
}

// ValueIn is p's value in obj, an object's content (JSON values, as
// decoded from the server), a copy; with secret, a Secret's values
// masked.
func (p Path) ValueIn(obj map[string]any, secret bool) PathValue {
	if secret {
		obj = runtime.DeepCopyJSON(obj)
		diff.MaskSecretValues(obj)
	}
	var cur any = obj
	for _, s := range p.steps {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[s.key]
			if !ok || s.index >= 0 {
				return PathValue{State: PathAbsent}
			}
			cur = v
		case []any:
			if s.index < 0 || s.index >= len(c) {
				return PathValue{State: PathAbsent}
			}
			cur = c[s.index]
		default:
			return PathValue{State: PathAbsent}
		}
	}
	switch cur.(type) {
	case map[string]any, []any:
		// The value is the caller's own: obj may change after (a timeline
		// rebuilds its versions in one object).
		cur = runtime.DeepCopyJSONValue(cur)
	}
	return PathValue{State: PathSet, Value: cur}
}

// PathValueOf is p's value in version i of h.
func (h *History) PathValueOf(i int, p Path) PathValue {
	v := &h.Versions[i]
	switch {
	case v.Deleted:
		return PathValue{State: PathDeleted}
	case !v.Recorded || v.Object == nil:
		return PathValue{State: PathNotRecorded}
	}
	return p.ValueIn(v.Object.Object, h.Secret)
}

// ReportPath is a path's value in each version of a report, oldest
// first: kedit history --path.
type ReportPath struct {
	Path   string            `json:"path"`
	Values []ReportPathValue `json:"values"`
}

// ReportPathValue is the path's value in one version: State says
// whether the field is there (PathState); Value is null unless it is.
type ReportPathValue struct {
	ResourceVersion string    `json:"resourceVersion"`
	Time            string    `json:"time"`
	User            string    `json:"user"`
	Manager         string    `json:"manager"`
	State           PathState `json:"state"`
	Value           any       `json:"value"`
}

// PathReport is p's value in each version of h, oldest first.
func (h *History) PathReport(p Path) ReportPath {
	r := ReportPath{Path: p.String(), Values: []ReportPathValue{}}
	for i := range h.Versions {
		v, pv := h.version(i), h.PathValueOf(i, p)
		r.Values = append(r.Values, ReportPathValue{ResourceVersion: v.ResourceVersion, Time: v.Time, User: v.User, Manager: v.Manager,
			State: pv.State, Value: pv.Value})
	}
	return r
}

// text is the value for the report's text, escaped.
func (v ReportPathValue) text() string {
	return string(PathValue{State: v.State, Value: v.Value}.Text())
}

// maxPathValue bounds a value in the report's line of values.
const maxPathValue = 30

// text writes the path's section of the report: its values in a line,
// each change an arrow (the same value twice in a row once), then each
// version's value in a table. Everything from the log is escaped.
func (r ReportPath) text(b *strings.Builder, c clock) {
	e := escape.String
	var chain []string
	for i, v := range r.Values {
		if i > 0 && v.State == r.Values[i-1].State && reflect.DeepEqual(v.Value, r.Values[i-1].Value) {
			continue
		}
		chain = append(chain, cut(v.text(), maxPathValue))
	}
	fmt.Fprintf(b, "\nVALUES OF %s: %s\n", e(r.Path), strings.Join(chain, " → "))
	rows := [][]string{{"RV", "TIME", "USER", "MANAGER", "VALUE"}}
	for _, v := range r.Values {
		rows = append(rows, []string{cut(dash(e(v.ResourceVersion)), 10), c.short(v.Time), cut(e(v.User), 20), cut(dash(e(v.Manager)), 18), v.text()})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row[:len(row)-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	last := tableWidth
	for _, w := range widths[:len(widths)-1] {
		last -= w + 2
	}
	for _, row := range rows {
		var line strings.Builder
		for i, cell := range row[:len(row)-1] {
			fmt.Fprintf(&line, "%s%s  ", cell, strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)))
		}
		line.WriteString(cut(row[len(row)-1], max(last, 12)))
		fmt.Fprintln(b, strings.TrimRight(line.String(), " "))
	}
}
