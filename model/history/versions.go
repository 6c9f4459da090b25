package history

import (
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
)

// Version is one version of the object: what a successful write left.
type Version struct {
	// ResourceVersion is the stored object's resourceVersion; empty for a
	// deletion and for a write the log holds no object of.
	ResourceVersion string
	// Time is when the write was recorded (its stageTimestamp), Received
	// when the server received it.
	Time, Received time.Time
	Client         Client
	// Manager is the field manager the write named, else the one
	// managedFields credit with it.
	Manager string
	// Verb is the write's verb: create, update, patch or delete.
	Verb        string
	Subresource string
	// UID is the object's uid; a new one after a deletion is a new object
	// under the same name (Recreated).
	UID string
	// Deleted marks the object's deletion.
	Deleted bool
	// Recreated marks the first version of an object created again after a
	// deletion; Changed is then against the deleted object's last state.
	Recreated bool
	// Recorded is false for a write the log holds no stored object of (a
	// write below RequestResponse level): what it changed is unknown.
	Recorded bool
	// AfterGap is set when the version before this one was not recorded:
	// Changed then holds that write's changes too, whose writer is unknown.
	AfterGap bool
	// Changed are the fields this version changed against the one before,
	// as the timeline computes them; nil for the first version of the log,
	// a creation, a deletion and an unrecorded write.
	Changed []model.PathChange
	// Err is set when the comparison with the version before failed.
	Err error
	// Object is the object after the write; nil for a deletion and an
	// unrecorded write.
	Object *unstructured.Unstructured
	// Source is where the write's event is in the log, "FILE:LINE".
	Source string
	// Verdict is what Analyze found of the write.
	Verdict Verdict

	requestRV string
	// tests are the paths the write's JSON Patch tested, as pointer
	// segments.
	tests [][]string
	// managerNamed is set when the request named Manager (its
	// fieldManager parameter), rather than managedFields crediting it.
	managerNamed bool
	// creation is set for a create, and for the first version of an
	// object the log saw deleted before: it set every field.
	creation bool
}

// sortEvents orders events by stageTimestamp, then by when the server
// received them; events of the same instant keep their order in the log.
func sortEvents(events []Event) []Event {
	out := append([]Event(nil), events...)
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.Before(out[j].Time)
		}
		return out[i].Received.Before(out[j].Received)
	})
	return out
}

// versions turns the successful writes among sorted events into versions,
// oldest first. A write that stored nothing new (its object has the
// resourceVersion of the version before) is no version; it is returned
// among the reads, since its client was sent the object as it was.
func versions(events []Event, opts []diff.Option) (vs []Version, noops []Event) {
	var last *unstructured.Unstructured // the latest recorded object, also after a deletion
	deleted, gap := false, false
	for _, ev := range events {
		if !ev.IsWrite() || !ev.succeeded() {
			continue
		}
		v := Version{Time: ev.Time, Received: ev.Received, Client: ev.Client, Manager: ev.Manager, Verb: ev.Verb,
			Subresource: ev.Subresource, UID: ev.UID, Source: ev.Source, requestRV: ev.RequestRV, tests: pointers(ev.Tests), managerNamed: ev.Manager != ""}
		obj := storedObject(ev, last)
		if ev.Verb == VerbDelete && (obj == nil || !pendingDeletion(obj)) {
			v.Deleted, v.Recorded = true, true
			if v.UID == "" && last != nil {
				v.UID = string(last.GetUID())
			}
			vs = append(vs, v)
			deleted, gap = true, false
			continue
		}
		if obj == nil {
			v.Recorded = false
			vs = append(vs, v)
			gap = true
			continue
		}
		v.Recorded, v.Object, v.ResourceVersion = true, obj, obj.GetResourceVersion()
		v.UID = string(obj.GetUID())
		if n := len(vs); n > 0 && !deleted && !gap && vs[n-1].ResourceVersion == v.ResourceVersion {
			noops = append(noops, ev)
			continue
		}
		v.creation = ev.Verb == VerbCreate || deleted
		v.Recreated = deleted || (last != nil && model.MadeOnEarlierObject(string(last.GetUID()), v.UID))
		v.creation = v.creation || v.Recreated
		v.AfterGap = gap && !v.creation
		if last != nil && !(ev.Verb == VerbCreate && !v.Recreated) {
			v.Changed, v.Err = model.PathChanges(comparable(last, obj), obj, opts...)
		}
		if v.Manager == "" {
			v.Manager = model.Writer(obj, fieldChanges(v.Changed)).Manager
		}
		vs = append(vs, v)
		last, deleted, gap = obj, false, false
	}
	return vs, noops
}

// storedObject is the object a write left, from what the server returned:
// the object itself, or for the scale subresource the last object with the
// Scale's replicas. Nil when that cannot be known.
func storedObject(ev Event, last *unstructured.Unstructured) *unstructured.Unstructured {
	obj := ev.Object
	if obj == nil {
		return nil
	}
	switch {
	case obj.GetKind() == "Status":
		return nil
	case obj.GetKind() == "Scale" && ev.Subresource == "scale":
		if last == nil {
			return nil
		}
		replicas, found, err := unstructured.NestedFieldNoCopy(obj.Object, "spec", "replicas")
		if err != nil {
			return nil
		}
		out := last.DeepCopy()
		if found {
			_ = unstructured.SetNestedField(out.Object, replicas, "spec", "replicas")
		} else {
			unstructured.RemoveNestedField(out.Object, "spec", "replicas")
		}
		out.SetResourceVersion(obj.GetResourceVersion())
		return out
	case last != nil && obj.GetKind() != last.GetKind():
		// Another subresource's answer (a Binding, an Eviction ...).
		return nil
	}
	return obj
}

// pendingDeletion reports whether a deletion's answer is the object still
// stored, marked for deletion and waiting for its finalizers: a version,
// not the end of the object.
func pendingDeletion(obj *unstructured.Unstructured) bool {
	return obj.GetKind() != "Status" && obj.GetDeletionTimestamp() != nil && len(obj.GetFinalizers()) > 0
}

// comparable is prev as diff compares it with cur: writes through another
// API version of the same kind are compared field by field all the same.
func comparable(prev, cur *unstructured.Unstructured) *unstructured.Unstructured {
	if prev.GetAPIVersion() == cur.GetAPIVersion() {
		return prev
	}
	p := prev.DeepCopy()
	p.SetAPIVersion(cur.GetAPIVersion())
	return p
}

func fieldChanges(pcs []model.PathChange) []model.FieldChange {
	out := make([]model.FieldChange, len(pcs))
	for i, c := range pcs {
		out[i] = model.FieldChange{Path: c.Path.String(), Kind: c.Kind}
	}
	return out
}
