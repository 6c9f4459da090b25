package kube

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// manifestDoc is one object a manifest names: its kind and where it is.
type manifestDoc struct {
	gvk             schema.GroupVersionKind
	namespace, name string
	// source says where it was read: "app.yaml, document 2".
	source string
}

// manifestExts are the files of a directory -f reads, as kubectl reads
// them: its own, and with -R those of its subdirectories too.
var manifestExts = []string{".json", ".yaml", ".yml"}

// readManifests reads the objects the files name, in order: YAML (one
// document or several) or JSON, a List's items each. path - is stdin. A
// directory's manifests are read in the order of their paths, and with
// recursive those of every directory below it.
func readManifests(paths []string, stdin io.Reader, recursive bool) ([]manifestDoc, error) {
	var out []manifestDoc
	for _, p := range paths {
		files := []string{p}
		if p != "-" {
			fi, err := os.Stat(p)
			if err != nil {
				return nil, fmt.Errorf("-f %s: %w", p, err)
			}
			if fi.IsDir() {
				if files, err = manifestFiles(p, recursive); err != nil {
					return nil, err
				}
			}
		}
		for _, f := range files {
			docs, err := readManifest(f, stdin)
			if err != nil {
				return nil, err
			}
			out = append(out, docs...)
		}
	}
	return out, nil
}

// manifestFiles lists dir's manifests, and with recursive those of every
// directory below it, in the lexical order of their paths as
// filepath.WalkDir visits them (sub/b.yaml before top.yaml). A symlink to
// a directory is not followed, as kubectl's -R does not follow one.
func manifestFiles(dir string, recursive bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case e.IsDir() && path != dir && !recursive:
			return filepath.SkipDir
		case e.IsDir(), e.Type()&fs.ModeSymlink != 0 && isDir(path):
		case slices.Contains(manifestExts, filepath.Ext(e.Name())):
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("-f %s: %w", dir, err)
	}
	if len(out) == 0 {
		where := "in the directory"
		if recursive {
			where = "in the directory or below it"
		}
		return nil, fmt.Errorf("-f %s: no .yaml, .yml or .json file %s", dir, where)
	}
	return out, nil
}

// isDir reports whether path is a directory, through a symlink.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// readManifest reads one file (- for stdin).
func readManifest(path string, stdin io.Reader) ([]manifestDoc, error) {
	name := path
	var r io.Reader = stdin
	if path == "-" {
		name = "standard input"
		if stdin == nil {
			return nil, errors.New("-f -: no standard input")
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", path, err)
		}
		defer f.Close()
		r = f
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(r), 4096)
	var out []manifestDoc
	for n := 1; ; n++ {
		var obj map[string]any
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		source := fmt.Sprintf("%s, document %d", name, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if obj == nil {
			continue // an empty document
		}
		docs, err := manifestObjects(&unstructured.Unstructured{Object: obj}, source)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
}

// manifestObjects names obj, or a List's items.
func manifestObjects(obj *unstructured.Unstructured, source string) ([]manifestDoc, error) {
	if obj.IsList() {
		var out []manifestDoc
		err := obj.EachListItem(func(o runtime.Object) error {
			u, ok := o.(*unstructured.Unstructured)
			if !ok {
				return fmt.Errorf("%s: a List item that is not an object", source)
			}
			docs, err := manifestObjects(u, source+", item "+fmt.Sprint(len(out)+1))
			out = append(out, docs...)
			return err
		})
		return out, err
	}
	gvk := obj.GroupVersionKind()
	switch {
	case gvk.Kind == "" || gvk.Version == "":
		return nil, fmt.Errorf("%s: no apiVersion or kind: kedit cannot tell what it is", source)
	case obj.GetName() == "" && obj.GetGenerateName() != "":
		return nil, fmt.Errorf("%s: a %s with generateName and no name names no object (kedit edits objects that exist)", source, gvk.Kind)
	case obj.GetName() == "":
		return nil, fmt.Errorf("%s: a %s without metadata.name", source, gvk.Kind)
	}
	return []manifestDoc{{gvk: gvk, namespace: obj.GetNamespace(), name: obj.GetName(), source: strings.TrimSpace(source)}}, nil
}
