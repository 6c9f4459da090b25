package source

import (
	"testing"

	"github.com/kedit/kedit/internal/testgit"
)

// layout is a repository of manifests: plain YAML, a kustomize base that
// two overlays share, strategic-merge and JSON 6902 patches, generators
// with literals and an env file, and comments everywhere.
var layout = map[string]string{
	"plain/app.yaml": `# the plain app
apiVersion: v1
kind: ConfigMap
metadata:
  name: plain-cfg # the name
  namespace: default
data:
  mode: "fast" # quoted
  level: '3'
---
# its service
apiVersion: v1
kind: Service
metadata:
  name: plain-svc
  namespace: default
spec:
  ports:
  - port: 80 # http
    protocol: TCP
`,
	"base/kustomization.yaml": `# the base both overlays share
resources:
- deploy.yaml # the app
configMapGenerator:
- name: app-cfg
  literals:
  - color=blue # the color
  - size=10
`,
	"base/deploy.yaml": `# the web app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # its name
  labels:
    app: web
spec:
  replicas: 1 # one by default
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app # the main container
        image: nginx:1.25
        env:
        - name: LOG
          value: info # the log level
        - name: MODE
          value: "a"
`,
	"overlays/prod/kustomization.yaml": `# production
namespace: prod
resources:
- ../../base
patches:
- path: deploy-patch.yaml # replicas and image
- path: json-patch.yaml
  target:
    kind: Deployment
    name: web
configMapGenerator:
- name: prod-settings
  literals:
  - region=eu # where
  envs:
  - prod.env
`,
	"overlays/prod/deploy-patch.yaml": `# prod runs three
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3 # three in prod
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.26 # prod's image
`,
	"overlays/prod/json-patch.yaml": `# prod's mode
- op: replace
  path: /spec/template/spec/containers/0/env/1/value
  value: "b" # prod mode
`,
	"overlays/prod/prod.env": `# prod settings
TIMEOUT=30
RETRIES=5
`,
	"overlays/dev/kustomization.yaml": `# development
namespace: dev
resources:
- ../../base
`,
}

// writeLayout writes files into a new git repository with one commit,
// and returns its directory.
func writeLayout(t testing.TB, files map[string]string) string {
	t.Helper()
	return testgit.Commit(t, files)
}
