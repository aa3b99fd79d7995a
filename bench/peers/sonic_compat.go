//go:build !((amd64 && go1.17 && !go1.28) || (arm64 && go1.20 && !go1.28))

package peers

// sonicNative is false where sonic v1.15.5 builds only its fallback, which
// is encoding/json under another name (sonic's compat.go).
const sonicNative = false
