// Package notebooks holds the example notebooks, one per source document in
// ../shared/seeds, committed with their outputs. It has no code of its own:
// its test executes every notebook through the real kernel with Jupyter's
// nbclient and checks with `grundy check` that the stored outputs
// reproduce, so a notebook that drifts from the library fails CI.
package notebooks
