package schemacheck

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	celcommon "k8s.io/apiserver/pkg/cel/common"
	sigsyaml "sigs.k8s.io/yaml"
)

// Diagnostic is one reason the server would refuse the object: the line
// it is on (counted from 1; the object's first line when the field is
// not in the text, as a missing one is not), the field's path as the
// server names it (spec.template.spec.containers[0].image), and why.
// Path and Message quote the text, which may hold anything: draw them
// escaped.
type Diagnostic struct {
	Line    int
	Path    string
	Message string
	// Dropped: the field is unknown to the schema or given twice, which
	// the server refuses only with fieldValidation=Strict; with Warn or
	// Ignore it takes the object and drops the field.
	Dropped bool
	// Server: the API server's own dry run of the draft said it
	// (kube.Runner.ServerCheck), not the schema kedit read: a rule that
	// lives in the server's code (a replicas below 0, a port above
	// 65535, a schedule that is no cron).
	Server bool
}

// Check returns why the server would refuse text, the YAML or JSON of
// one object of the schema's kind, for a reason its schema states, each
// on its line, sorted by line. A text that does not parse, or is of
// another kind, has none: what parses it says why.
func (s *Schema) Check(text string) []Diagnostic {
	raw, err := sigsyaml.YAMLToJSON([]byte(text))
	if err != nil {
		return nil
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil
	}
	return s.CheckObject(text, obj)
}

// CheckObject is Check of obj, read from text (a Secret's draft, whose
// text shows its values decoded, is read into the object the server
// gets): the diagnostics are about obj, on text's lines.
func (s *Schema) CheckObject(text string, obj map[string]any) []Diagnostic {
	return s.CheckUpdate(text, obj, nil)
}

// CheckUpdate is CheckObject of obj as an update of old, the object the
// server holds (nil: a new object). The server ratchets a custom
// resource's update: a value the schema refuses but old holds unchanged
// (the schema was tightened since it was written) is taken, and a rule
// comparing to oldSelf is checked against old. old is only read.
func (s *Schema) CheckUpdate(text string, obj, old map[string]any) []Diagnostic {
	if obj == nil {
		return nil
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	if av, _ := obj["apiVersion"].(string); av != s.gvk.GroupVersion().String() {
		return nil
	}
	if k, _ := obj["kind"].(string); k != s.gvk.Kind {
		return nil
	}
	// Read only when something is said: a valid mebibyte's text is not
	// parsed again for lines no diagnostic is on.
	lines := &lazyLines{text: text}
	var out []Diagnostic
	add := func(path, msg string) {
		out = append(out, Diagnostic{Line: lines.line(path), Path: path, Message: msg})
	}
	unknown := func(path string) {
		out = append(out, Diagnostic{Line: lines.line(path), Path: path, Message: s.unknownText(path), Dropped: true})
	}
	var errs field.ErrorList
	if s.builtin {
		typed, failures := s.decode(raw)
		// The server's code checks what the Go type holds: every field
		// of a struct that is not a pointer there (a Deployment's spec,
		// even when the text has none), and a zero value (null, "", 0)
		// where the field was written or not at all. The schema's
		// rules are checked on that, a zero value as a field left out:
		// the server defaults it, or refuses it where the schema
		// requires it.
		held := runtime.DeepCopyJSON(obj)
		if typed != nil {
			if u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed); err == nil {
				held = u
			}
		}
		dropZero(held)
		// A main resource's update keeps the status the server has (a
		// built-in kind's status is written through its status
		// subresource): its status is never validated there, and the
		// zero values of a status the server wrote (a Node's
		// kubeletEndpoint Port 0) would read as required fields left out.
		// Its fields are still read strictly, above.
		delete(held, "status")
		// The server defaults before it validates (a Service port's
		// protocol is TCP when left out, and two ports of 443 then
		// collide): the defaults the schema publishes are its.
		structuraldefaulting.Default(held, s.structural)
		errs = append(errs, validation.ValidateCustomResource(nil, held, s.validator)...)
		errs = append(errs, builtinDuplicates(s.gvk.Kind, listtype.ValidateListSetsAndMaps(nil, s.structural, held))...)
		for _, e := range failures {
			switch e.kind {
			case unknownField:
				unknown(e.path)
			case duplicateField:
				out = append(out, Diagnostic{Line: lines.line(e.path), Path: e.path, Message: lastName(e.path) + ": the field is given twice", Dropped: true})
			case wrongType:
				if !typeErrorUnder(errs, e.path) {
					if v, found := valueAt(obj, e.path); found {
						add(e.path, fmt.Sprintf("%s: %s is %s, %s is expected", lastName(e.path), valueWords(v), kindWords(v), e.text))
					} else {
						add(e.path, fmt.Sprintf("%s: %s is expected", lastName(e.path), e.text))
					}
				}
			}
		}
	} else {
		errs = s.checkCustom(obj, old, unknown)
	}
	for _, e := range errs {
		path := e.Field
		if path == "<nil>" {
			path = ""
		}
		if m := anyOfPath.FindStringSubmatch(e.Detail); path == "" && m != nil {
			// An int-or-string's refusal names its field in the text.
			path = m[1]
			e = field.TypeInvalid(field.NewPath(path), "", "must be of type int-or-string")
		}
		v, found := valueAt(obj, path)
		add(path, errorText(e, v, found, s.schemaAt(path)))
	}
	return tidy(out)
}

var anyOfPath = regexp.MustCompile(`^"([^"]+)" must validate at least one schema`)

// tidy sorts ds by line and keeps the first of each field's: a field
// refused twice (by the strict decode and by the schema, or by each
// schema of an int-or-string) is said once.
func tidy(ds []Diagnostic) []Diagnostic {
	var out []Diagnostic
	seen := map[string]bool{}
	for _, d := range ds {
		if seen[d.Path] {
			continue
		}
		seen[d.Path] = true
		out = append(out, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// checkCustom runs what the server runs on a custom resource: its
// metadata read strictly, unknown fields pruned (and reported), the
// schema's validation on what is left, its embedded resources, its keyed
// lists, and, when nothing blocks them, its rules; against old, when it
// is an update, as the server ratchets them.
func (s *Schema) checkCustom(obj, old map[string]any, unknown func(path string)) field.ErrorList {
	meta, hasMeta, metaUnknown, metaErr := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	for _, p := range metaUnknown {
		unknown(p)
	}
	pruned := runtime.DeepCopyJSON(obj)
	if !s.structural.XPreserveUnknownFields {
		for _, p := range pruning.PruneWithOptions(pruned, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
			unknown(p)
		}
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(pruned, s.structural)
	}
	// The server defaults what is left out before it validates.
	structuraldefaulting.Default(pruned, s.structural)
	var errs field.ErrorList
	coerceErr, unknownPaths := schemaobjectmeta.CoerceWithOptions(nil, pruned, s.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	for _, p := range unknownPaths {
		unknown(p)
	}
	if coerceErr != nil {
		errs = append(errs, coerceErr)
	}
	if hasMeta && metaErr == nil {
		// The server validates the metadata it read, as ObjectMeta
		// holds it (a null label is "").
		if err := schemaobjectmeta.SetObjectMeta(pruned, meta); err == nil {
			if m, ok := pruned["metadata"].(map[string]any); ok {
				dropZero(m)
			}
		}
	}
	var oldObj any // the cel validator's old: nil when there is none
	var celOptions []cel.Option
	if old == nil {
		errs = append(errs, validation.ValidateCustomResource(nil, pruned, s.validator)...)
	} else {
		oldObj = old
		correlated := celcommon.NewCorrelatedObject(pruned, old, &celmodel.Structural{Structural: s.structural})
		celOptions = append(celOptions, cel.WithRatcheting(correlated))
		errs = append(errs, validation.ValidateCustomResourceUpdate(nil, pruned, old, s.validator, validation.WithRatcheting(correlated))...)
	}
	errs = append(errs, schemaobjectmeta.Validate(context.Background(), nil, pruned, s.structural, false)...)
	// An update's keyed lists are checked only when old's hold.
	if old == nil || len(listtype.ValidateListSetsAndMaps(nil, s.structural, old)) == 0 {
		errs = append(errs, listtype.ValidateListSetsAndMaps(nil, s.structural, pruned)...)
	}
	errs = s.keptByServer(errs)
	if s.cel != nil && !blocking(errs) {
		ruleErrs, _ := s.cel.Validate(context.Background(), nil, s.structural, pruned, oldObj, celconfig.RuntimeCELCostBudget, celOptions...)
		errs = append(errs, s.keptByServer(ruleErrs)...)
	}
	return errs
}

// keptByServer drops from errs those of the status when the kind has a
// status subresource: an update of the object then keeps the status the
// server holds, so the draft's is never validated (its unknown fields
// are still refused by the strict read, reported by the pruning above).
// A rule of the whole object that reads the status is checked on the
// draft's, which is the server's unless the user changed it.
func (s *Schema) keptByServer(errs field.ErrorList) field.ErrorList {
	if !s.statusSubresource {
		return errs
	}
	var out field.ErrorList
	for _, e := range errs {
		if e.Field == "status" || strings.HasPrefix(e.Field, "status.") || strings.HasPrefix(e.Field, "status[") {
			continue
		}
		out = append(out, e)
	}
	return out
}

// blocking reports whether errs keep the server from running the
// schema's rules (it runs none on an object of the wrong shape).
func blocking(errs field.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}
