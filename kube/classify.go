package kube

// Classify turns err, the API server's answer to verb ("get", "update" ...)
// on t, into one of this package's typed errors (*ConflictError,
// *NotFoundError ...), for a client that writes through t outside this
// package: the demo's writer.
func Classify(t *Target, verb string, err error) error { return classify(t, verb, err) }
