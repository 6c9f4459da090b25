// Package auditlog reads Kubernetes API server audit logs and keeps the
// events of one object: its writes, and the reads that cover it (a get of
// it, a list or watch of its collection). It streams: a log of any size is
// read once, lines that cannot be about the object are skipped before any
// JSON is decoded, and only the object's events are kept.
//
// Every line read is checked to be one JSON object, and the end of each
// log to be whole: a file of another kind or a corrupt gzip stream is an
// error naming the file and line, and a log that ends early (a gzip stream
// or a last line cut short) a warning (CutError) that the history is
// partial.
//
// It reads audit.k8s.io/v1 Event JSON lines, plain or gzip-compressed,
// as the API server's log backend writes them and as the managed clouds
// export them:
//
//   - a self-managed cluster's --audit-log-path file and its rotated
//     copies;
//   - EKS, through CloudWatch Logs: each log event's message is the Event
//     line; an export to S3 prefixes each line with its timestamp and a
//     space, and `aws logs filter-log-events` wraps each line as the
//     "message" of a JSON object (either is taken apart here);
//   - AKS, through Azure Monitor: the AzureDiagnostics table's log_s column
//     holds the Event line; an archive to a storage account or an event hub
//     wraps it as properties.log of a JSON record; the resource-specific
//     AKSAudit and AKSAuditAdmin tables split it into columns (AuditId,
//     Verb, RequestUri, ObjectRef ...), which are put back together;
//   - GKE: Cloud Audit Logs entries (a LogEntry whose protoPayload is an
//     AuditLog of serviceName k8s.io), one a line, as a Cloud Storage sink
//     writes them or `gcloud logging read --format=json | jq -c '.[]'`
//     prints them.
//
// JSON documents that span lines (the AWS and gcloud command line tools'
// own output) are not read: jq -c makes lines of them, as the error says.
package auditlog
