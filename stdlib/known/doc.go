// Package known states the known results of the source documents
// (../shared/seeds) as Go functions: P-position predicates, value formulas,
// move rules and certificate checkers, each with a doc comment naming the
// seed and the statement.
//
// The texts were extracted from papers and some formulas lost symbols, so
// nothing here is trusted because it is printed: every function is checked
// in this package's tests against exhaustive tables computed by
// grundy/stdlib/solve, with the bound in the test name. Where the printed
// statement fails, the function implements the corrected reading that the
// tables confirm and its doc comment says what was changed; a second
// function (suffix AsPrinted) keeps the literal reading so that a test can
// show the counterexample.
//
// Positions and moves are games.Pos (a plain []int converts implicitly), so
// they print as (1,2,3) and a predicate such as CN32IsP can be handed to
// solve.Table.CheckP as it is. The papers number heaps from 1; the slices
// here are indexed from 0, so p_1 is p[0]. Check("000/") checks every claim
// of one seed against its tables.
package known
