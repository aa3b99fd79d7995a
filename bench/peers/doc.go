// Package peers benchmarks gcf against the JSON libraries a Go developer
// compares it with: encoding/json, github.com/go-json-experiment/json
// (jsonv2 and its jsontext), github.com/goccy/go-json and
// github.com/bytedance/sonic, on the same data in the same run. It is its
// own module so that the peers never enter gcf's go.mod. See
// docs/benchmarks.md in the repository for the results and how to run it.
package peers
