package plots

import "gonum.org/v1/plot/vg"

func vgLen(f float64) vg.Length { return vg.Length(f) }
