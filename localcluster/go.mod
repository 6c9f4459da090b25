module github.com/kedit/kedit/localcluster

go 1.26.0
