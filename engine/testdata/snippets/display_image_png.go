img := image.NewRGBA(image.Rect(0, 0, 4, 4))
img.Set(1, 1, color.RGBA{255, 0, 0, 255})
img
// Output:
// [image/png,text/plain] &{[0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 255 0 0 255 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0] 16 (0,0)-(4,4)}
