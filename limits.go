package gcf

import "github.com/gcfkit/gcf/encoder"

// The encode limits are package encoder's (encoder/limits.go); these are
// the names the encoders of this package use.

func depthErr(limit int) error { return encoder.DepthError(limit) }

func lineTooLongErr(line, n, limit int, text []byte) error {
	return encoder.LineTooLongError(line, n, limit, text)
}

func elementsErr(n int, what string, limit int) error { return encoder.ElementsError(n, what, limit) }

func fieldsErr(n, limit int) error { return encoder.FieldsError(n, limit) }

func bytesErr(limit int64) error { return encoder.SizeError(limit) }

func checkLines(out []byte, max int) error { return encoder.CheckLines(out, max) }

func checkSize(n int, limit int64) error { return encoder.CheckSize(n, limit) }
