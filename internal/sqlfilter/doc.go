// Package sqlfilter compiles the DDS-SQL filter expressions of ContentFilteredTopic and
// QueryCondition (DDS 1.4 Annex B, filter class "DDSSQL") for Go struct types.
//
// # Grammar
//
// A condition is predicates joined by AND, OR and NOT, with parentheses; AND binds
// tighter than OR. A predicate is
//
//	Field RelOp Value      RelOp: = <> != < <= > >=  (Value RelOp Field too)
//	Field RelOp Field
//	Field [NOT] BETWEEN Value AND Value
//	Field [NOT] LIKE Value  % is any run of characters, _ one character
//
// A Field is a member path, a.b[2].c: nested structs, optional members, and an index
// into a sequence or an array. A Value is an integer (decimal or 0x hexadecimal), a float,
// a 'string' (a quote doubled in it stands for itself), a one-character string for an
// 8-bit member, TRUE or FALSE, an enumerator's name, or a parameter %0 to %99 whose
// value is given as text and read as one of those literals (a string parameter may
// also be given without quotes). Keywords are case-insensitive. A member name
// denotes the Go field of that name or, when only one matches, the field of the same
// name ignoring case and underscores (IDL id is the Go field ID).
//
// # Types
//
// Compile checks every predicate against the Go type: an unknown member, a struct or a
// sequence compared as a whole, a string compared with a number, a boolean ordered, a
// name that is not an enumerator of the member's enum: each is an error matching
// errs.ErrBadParameter that names the member. An enum is a named integer type with a
// String method, as cmd/ddsgen generates; its enumerators are the names String returns
// for the values from -4096 to 4096. Numbers of any kinds compare by value.
//
// # Evaluation
//
// Filter.Match evaluates the compiled expression with reflect and allocates nothing. A
// member behind a nil optional member, or an index past the end of a sequence, makes
// its predicate false (and NOT of it true): the three-valued logic of SQL is not
// modeled.
package sqlfilter
