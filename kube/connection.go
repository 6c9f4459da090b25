package kube

import (
	"context"
	"errors"
	"io"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// The rules by which Watch and Browse tell a lost connection from the
// informer's ordinary work, in one place.

// notLost reports whether a failed list or watch request says nothing about
// the connection: the informer is stopping, or the resourceVersion expired
// (410 Gone), which the reflector answers with a relist.
func notLost(ctx context.Context, err error) bool {
	return ctx.Err() != nil || apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// watchEndNotLost is notLost for the error a ListAndWatch ended with, where
// a watch the server closed normally (EOF) is not a lost connection either.
func watchEndNotLost(ctx context.Context, err error) bool {
	return notLost(ctx, err) || errors.Is(err, io.EOF)
}

// lostConnection reports whether a request's error says the server could
// not be reached: any answer of the server's own (a status such as 404 or
// 403) means it is there.
func lostConnection(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	var status apierrors.APIStatus
	// 503 is a server that is there but will not serve: as good as gone.
	return !errors.As(err, &status) || apierrors.IsServiceUnavailable(err)
}
