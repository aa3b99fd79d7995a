// Package jsonnum formats JSON number text for the library's JSON writers
// (gcf.ToJSON and transcode), so a float is written one way everywhere.
package jsonnum

import (
	"math"
	"strconv"
)

// AppendFloat appends a finite f as the library's JSON output writes a
// float64: a float holding an integer below 2^53 in plain decimal (0 for
// either zero), anything else in strconv's shortest 'g' form.
func AppendFloat(dst []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		if f == 0 {
			return append(dst, '0')
		}
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}
