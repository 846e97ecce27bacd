package grundyrt

// Numeric conversions as the compiler makes them, where the interpreter's
// (through reflect) differ.
//
// A float to an integer type narrower than 64 bits: reflect converts to
// int64 (or uint64) and drops the high bits; gc on amd64 converts to int8,
// int16, int32, uint8 and uint16 through a 32-bit conversion (out of
// int32's range: -2147483648), and on arm64 saturates. The spec leaves a
// value out of the type's range to the implementation; these are the
// implementation go run uses. A float32 arrives as the float64 it
// converts to exactly, which converts as it would.
//
// A 64-bit integer to float32: reflect rounds to float64 first, then to
// float32, and the two roundings can differ from gc's one (int64(1<<60 +
// 1<<36 + 1) was 1.1529215e+18, not 1.1529216e+18).

func FloatToInt8(f float64) int8     { return int8(f) }
func FloatToInt16(f float64) int16   { return int16(f) }
func FloatToInt32(f float64) int32   { return int32(f) }
func FloatToUint8(f float64) uint8   { return uint8(f) }
func FloatToUint16(f float64) uint16 { return uint16(f) }
func FloatToUint32(f float64) uint32 { return uint32(f) }

func IntToFloat32(i int64) float32   { return float32(i) }
func UintToFloat32(u uint64) float32 { return float32(u) }
