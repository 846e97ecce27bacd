package plots

import "gonum.org/v1/plot/vg"

func vgLen(f float64) vg.Length { return vg.Length(f) }

func vgPoint(x, y float64) vg.Point { return vg.Point{X: vg.Length(x), Y: vg.Length(y)} }
