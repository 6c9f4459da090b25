package schemacheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube/kubetest"
)

// MutationsEnv sets how many mutations TestCheckAgreesWithTheServer
// tries (make stress sets more).
const MutationsEnv = "KEDIT_SCHEMA_MUTATIONS"

// The objects mutated: real objects of each kind, valid as they are.
var differentialBases = []struct {
	gvk      schema.GroupVersionKind
	resource string
	text     string
}{
	{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "deployments", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  revisionHistoryLimit: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      restartPolicy: Always
      containers:
      - name: web
        image: nginx
        imagePullPolicy: Always
        ports:
        - containerPort: 80
          protocol: TCP
        env:
        - name: MODE
          value: fast
        resources:
          limits: {cpu: 100m}
      - name: side
        image: busybox
        command: [sleep, "3600"]
        terminationMessagePolicy: File
`},
	{schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "configmaps", `apiVersion: v1
kind: ConfigMap
metadata:
  name: conf
  annotations: {note: kept}
data:
  a: one
  b: two
immutable: false
`},
	{schema.GroupVersionKind{Version: "v1", Kind: "Service"}, "services", `apiVersion: v1
kind: Service
metadata:
  name: front
spec:
  type: ClusterIP
  sessionAffinity: None
  selector: {app: web}
  ports:
  - name: http
    port: 80
    targetPort: 8080
    protocol: TCP
  - name: https
    port: 443
    targetPort: https
    protocol: TCP
`},
	{schema.GroupVersionKind{Group: "check.kedit.example.com", Version: "v1", Kind: "Thing"}, "things", ThingYAML},
}

// TestCheckAgreesWithTheServer mutates real objects at random (a field
// renamed, retyped, removed, set to another value, a list item
// repeated, a field added) and judges each mutation twice: by Check, and
// by the API server's dry-run create with fieldValidation=Strict. Every
// mutation the server refuses for a reason the schema states (a strict
// decoding error, a wrong type, a refusal of a schema's rule) is flagged
// by Check on that field, and every mutation Check flags, the server
// refuses: never a miss, never a false alarm.
func TestCheckAgreesWithTheServer(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	InstallThing(t)
	n := 400
	if v := os.Getenv(MutationsEnv); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("%s=%q: %v", MutationsEnv, v, err)
		}
	}
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	cfg := kubetest.RESTConfig(t)
	cfg.QPS, cfg.Burst = -1, 0
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}

	type base struct {
		obj    map[string]any
		schema *Schema
		res    schema.GroupVersionResource
	}
	var bases []base
	for _, b := range differentialBases {
		var obj map[string]any
		if err := sigsyaml.Unmarshal([]byte(b.text), &obj); err != nil {
			t.Fatal(err)
		}
		s := serverSchema(t, b.gvk)
		if ds := s.Check(b.text); len(ds) > 0 {
			t.Fatalf("the valid %s is flagged: %+v", b.gvk.Kind, ds)
		}
		bases = append(bases, base{obj, s, b.gvk.GroupVersion().WithResource(b.resource)})
	}

	var c counts
	for i := range n {
		b := bases[i%len(bases)]
		obj := runtime.DeepCopyJSON(b.obj)
		var did []string
		for range 1 + rng.IntN(2) {
			if m := mutate(rng, obj); m != "" {
				did = append(did, m)
			}
		}
		raw, err := sigsyaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		ds := b.schema.Check(text)
		_, err = dyn.Resource(b.res).Namespace(ns).Create(context.Background(), &unstructured.Unstructured{Object: obj},
			metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
		verdict := judge(b.schema, err)
		if verdict.other != nil {
			t.Fatalf("mutation %d (%s): the server did not judge it: %v", i, strings.Join(did, "; "), verdict.other)
		}
		c.mutations++
		refused := err != nil
		if refused {
			c.refused++
		}
		if len(verdict.schemaPaths) > 0 {
			c.schemaRefused++
		}
		if len(ds) > 0 {
			c.flagged++
		}
		if refused == (len(ds) > 0) {
			c.agreed++
		}
		if len(ds) > 0 && !refused {
			t.Errorf("mutation %d (%s): a false alarm: the server takes it, Check says %+v\n%s", i, strings.Join(did, "; "), ds, text)
			continue
		}
		for _, p := range verdict.schemaPaths {
			if !slices.ContainsFunc(ds, func(d Diagnostic) bool { return samePlace(d.Path, p) }) {
				t.Errorf("mutation %d (%s): a miss: the server refuses %s (%v), Check says %+v\n%s", i, strings.Join(did, "; "), p, err, ds, text)
			}
		}
	}
	t.Logf("mutations %d, refused by the server %d (for a schema reason %d), flagged by Check %d, agreed %d",
		c.mutations, c.refused, c.schemaRefused, c.flagged, c.agreed)
	if c.schemaRefused < c.mutations/4 {
		t.Errorf("only %d of %d mutations refused for a schema reason: the mutations test too little", c.schemaRefused, c.mutations)
	}
}

// counts are the differential test's tallies.
type counts struct {
	mutations, refused, schemaRefused, flagged, agreed int
}

// samePlace reports whether Check's path and the server's name one
// field, or one holds the other (a duplicate key named by its item, or
// by the item's key field).
func samePlace(mine, server string) bool {
	within := func(a, b string) bool {
		return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[")
	}
	if m, s := keysAsFields(mine), keysAsFields(server); within(m, s) || within(s, m) {
		return true
	}
	// The decode's type errors name no list's index.
	if !strings.Contains(server, "[") {
		m := withoutIndexes(mine)
		return within(m, server) || within(server, m)
	}
	return false
}

// verdict is the server's answer, read: the fields it refuses for a
// reason the schema states.
type verdict struct {
	schemaPaths []string
	// other is an answer that is no judgement of the object (the server
	// down, a timeout).
	other error
}

var (
	strictField = regexp.MustCompile(`(?:unknown|duplicate) field "([^"]+)"`)
	typeField   = regexp.MustCompile(`cannot unmarshal \w+ into Go struct field ([A-Za-z0-9]+)\.(\S+) of type`)
	// metaAt: the metadata a custom resource's ObjectMeta error is of.
	metaAt = regexp.MustCompile(`(\S+): Invalid value: .*Go struct field ObjectMeta\.`)
)

// judge reads err, the server's answer to a dry run.
func judge(s *Schema, err error) verdict {
	if err == nil {
		return verdict{}
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return verdict{other: err}
	}
	st := status.Status()
	switch st.Reason {
	case metav1.StatusReasonBadRequest:
		var paths []string
		for _, m := range strictField.FindAllStringSubmatch(st.Message, -1) {
			paths = append(paths, m[1])
		}
		if m := typeField.FindStringSubmatch(st.Message); m != nil {
			path := m[2]
			if m[1] == "ObjectMeta" && !s.builtin {
				// A custom resource's metadata is read apart: the field
				// is named within it.
				at := "metadata"
				if a := metaAt.FindStringSubmatch(st.Message); a != nil {
					at = a[1]
				}
				path = at + "." + path
			}
			paths = append(paths, path)
		}
		return verdict{schemaPaths: paths}
	case metav1.StatusReasonInvalid:
		var paths []string
		if st.Details == nil {
			return verdict{}
		}
		for _, c := range st.Details.Causes {
			if c.Field == "" || c.Field == "<nil>" {
				// Not a field: "some validation rules were not checked".
				continue
			}
			if statesRule(s, c) {
				paths = append(paths, c.Field)
			}
		}
		return verdict{schemaPaths: paths}
	case metav1.StatusReasonAlreadyExists, metav1.StatusReasonForbidden, metav1.StatusReasonNotFound, metav1.StatusReasonConflict:
		return verdict{}
	}
	if st.Code >= 500 || st.Code == 0 {
		return verdict{other: err}
	}
	return verdict{}
}

// statesRule reports whether the schema states the rule a 422's cause
// names: for a custom resource every cause but its metadata's names is
// the schema's; a built-in kind's are its code's, and count when the
// schema states the same rule (the field required, the value one of an
// enum, a keyed list's key given twice, a wrong type).
func statesRule(s *Schema, c metav1.StatusCause) bool {
	path := c.Field
	if !s.builtin {
		return path != "metadata.name" && path != "metadata.generateName" && path != "metadata.namespace"
	}
	switch c.Type {
	case metav1.CauseTypeFieldValueRequired:
		name := lastName(path)
		parent := s.schemaAt(strings.TrimSuffix(strings.TrimSuffix(path, name), "."))
		return parent != nil && parent.ValueValidation != nil && slices.Contains(parent.ValueValidation.Required, name)
	case metav1.CauseTypeFieldValueNotSupported:
		st := s.schemaAt(path)
		return st != nil && st.ValueValidation != nil && len(st.ValueValidation.Enum) > 0
	case metav1.CauseTypeFieldValueDuplicate:
		// The item of a keyed list or set (list[i]), or the key field of
		// its item (list[i].name, where name is a key of the list).
		item, keyField := path, ""
		if !strings.HasSuffix(path, "]") {
			keyField = lastName(path)
			item = strings.TrimSuffix(path, "."+keyField)
		}
		i := strings.LastIndex(item, "[")
		if i <= 0 {
			return false
		}
		st := s.schemaAt(item[:i])
		if st == nil || st.XListType == nil {
			return false
		}
		switch *st.XListType {
		case "set":
			return keyField == ""
		case "map":
			return keyField == "" || slices.Contains(st.XListMapKeys, keyField)
		}
		return false
	case metav1.CauseTypeTypeInvalid:
		return true
	}
	return false
}

// mutate changes obj at random in one way and says how; "" when it
// found nothing to change.
func mutate(rng *rand.Rand, obj map[string]any) string {
	var spots []spot
	collect(obj, "", &spots)
	if len(spots) == 0 {
		return ""
	}
	sp := spots[rng.IntN(len(spots))]
	switch op := rng.IntN(7); op {
	case 0: // a typo in a field's name
		if sp.parent == nil {
			return ""
		}
		typo := misspell(rng, sp.key)
		if _, taken := sp.parent[typo]; taken || typo == sp.key {
			return ""
		}
		sp.parent[typo] = sp.parent[sp.key]
		delete(sp.parent, sp.key)
		return "renamed " + sp.path + " to " + typo
	case 1: // another type
		v := randomValue(rng)
		sp.set(v)
		return fmt.Sprintf("set %s to %#v", sp.path, v)
	case 2: // removed
		if sp.parent == nil {
			return ""
		}
		delete(sp.parent, sp.key)
		return "removed " + sp.path
	case 3: // a list's item twice
		l, ok := sp.value.([]any)
		if !ok || len(l) == 0 {
			return ""
		}
		item := runtime.DeepCopyJSONValue(l[rng.IntN(len(l))])
		sp.set(append(l, item))
		return "repeated an item of " + sp.path
	case 4: // a number
		if _, ok := sp.value.(int64); !ok {
			return ""
		}
		v := []int64{-1, 0, 11, 100000, 3}[rng.IntN(5)]
		sp.set(v)
		return fmt.Sprintf("set %s to %d", sp.path, v)
	case 5: // a string
		if _, ok := sp.value.(string); !ok {
			return ""
		}
		v := []string{"", "Sometimes", "ABCD", "abcdefgh", "x_y", "80", "never"}[rng.IntN(7)]
		sp.set(v)
		return fmt.Sprintf("set %s to %q", sp.path, v)
	default: // a field added
		m, ok := sp.value.(map[string]any)
		if !ok {
			return ""
		}
		name := "extraField"
		if len(m) > 0 {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			name = misspell(rng, keys[rng.IntN(len(keys))])
		}
		if _, taken := m[name]; taken {
			return ""
		}
		m[name] = "added"
		return "added " + sp.path + "." + name
	}
}

// spot is one value of an object, and where it is.
type spot struct {
	path   string
	value  any
	parent map[string]any // the map it is a field of, or nil
	key    string
	list   []any // the list it is an item of, or nil
	index  int
}

func (s spot) set(v any) {
	if s.parent != nil {
		s.parent[s.key] = v
	} else if s.list != nil {
		s.list[s.index] = v
	}
}

// collect lists every value of x but the object's identity (apiVersion,
// kind, metadata's name and namespace), whose change the server refuses
// for reasons of its own.
func collect(x any, path string, out *[]spot) {
	switch x := x.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			switch p {
			case "apiVersion", "kind", "metadata", "metadata.name", "metadata.namespace":
				if p == "metadata" {
					collect(x[k], p, out)
				}
				continue
			}
			*out = append(*out, spot{path: p, value: x[k], parent: x, key: k})
			collect(x[k], p, out)
		}
	case []any:
		for i, v := range x {
			p := path + "[" + strconv.Itoa(i) + "]"
			*out = append(*out, spot{path: p, value: v, list: x, index: i})
			collect(v, p, out)
		}
	}
}

// misspell makes a typo in name: a letter doubled, dropped or swapped
// with the next.
func misspell(rng *rand.Rand, name string) string {
	if len(name) < 2 {
		return name + "x"
	}
	i := rng.IntN(len(name) - 1)
	switch rng.IntN(3) {
	case 0:
		return name[:i+1] + name[i:]
	case 1:
		return name[:i] + name[i+1:]
	}
	return name[:i] + string(name[i+1]) + string(name[i]) + name[i+2:]
}

// randomValue is a value of any JSON type.
func randomValue(rng *rand.Rand) any {
	switch rng.IntN(7) {
	case 0:
		return "3"
	case 1:
		return int64(3)
	case 2:
		return true
	case 3:
		return map[string]any{"a": "b"}
	case 4:
		return []any{"x"}
	case 5:
		return 1.5
	}
	return nil
}
