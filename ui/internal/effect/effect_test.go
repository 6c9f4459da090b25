package effect

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// TestStreamsSayTheirEnd: a watch's, a set watch's and the demo writer's
// commands answer a closed channel with the message that says it ended,
// and there is no command without a channel.
func TestStreamsSayTheirEnd(t *testing.T) {
	id := ID{Key: common.DraftKey{Name: "a"}, N: 3}
	ch := make(chan kube.WatchEvent, 1)
	ch <- kube.WatchEvent{Type: kube.ObjectModified, ResourceVersion: "7"}
	close(ch)
	if got := Watch(id, ch)().(Watched); got.Of != id || got.Closed || got.Event.ResourceVersion != "7" {
		t.Errorf("the event: %+v", got)
	}
	if got := Watch(id, ch)().(Watched); got.Of != id || !got.Closed {
		t.Errorf("the end: %+v", got)
	}
	sch := make(chan kube.SetEvent)
	close(sch)
	if _, ok := WatchSet(sch)().(SetWatchClosed); !ok {
		t.Error("a set watch's end is not SetWatchClosed")
	}
	if Watch(id, nil) != nil || WatchSet(nil) != nil || ReadDemo(nil) != nil || WaitRequests(nil, 1) != nil {
		t.Error("a command without a stream")
	}
}

// TestOpenNamesTheTargetFirst: a target that cannot be named is the
// answer, and nothing is opened.
func TestOpenNamesTheTargetFirst(t *testing.T) {
	key := common.DraftKey{Name: "a"}
	opened := false
	open := func(context.Context, *kube.Target) (int, error) { opened = true; return 1, nil }
	bad := errors.New("no such type")
	got := Open(context.Background(), open, key, func() (*kube.Target, error) { return nil, bad })().(Opened[int])
	if got.Key != key || !errors.Is(got.Err, bad) || opened {
		t.Errorf("%+v, opened %v", got, opened)
	}
	got = Open(context.Background(), open, key, func() (*kube.Target, error) { return &kube.Target{}, nil })().(Opened[int])
	if got.Err != nil || got.Obj != 1 || !opened {
		t.Errorf("%+v, opened %v", got, opened)
	}
}

// TestAskServerIsBounded: the server's check of a draft runs under
// ServerCheckTimeout, and text that is no draft is not asked.
func TestAskServerIsBounded(t *testing.T) {
	asked := 0
	check := func(ctx context.Context, _, _ *unstructured.Unstructured, _ string) ([]schemacheck.Diagnostic, error) {
		asked++
		dl, ok := ctx.Deadline()
		if !ok || time.Until(dl) > ServerCheckTimeout {
			t.Errorf("the check's deadline: %v %v", dl, ok)
		}
		return nil, errors.New("refused")
	}
	msg := ServerChecked{Text: "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: a\n", Version: 4}
	got := AskServer(context.Background(), check, model.FormatYAML, nil, nil, msg)().(ServerChecked)
	if asked != 1 || got.Err == nil || got.Version != 4 {
		t.Errorf("%+v, asked %d", got, asked)
	}
	msg.Text = "{not: [yaml"
	if got := AskServer(context.Background(), check, model.FormatYAML, nil, nil, msg)().(ServerChecked); asked != 1 || got.Err != nil {
		t.Errorf("a text that is no draft: %+v, asked %d", got, asked)
	}
}
