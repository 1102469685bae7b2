package main

import (
	"math"
	"math/big"
	"strings"
)

// cvKind is the kind of a constant value.
type cvKind uint8

const (
	cvInt cvKind = iota
	cvFloat
	cvString
	cvBool
	cvEnum // an enumerator: enum names its enum, i its value
)

// constVal is the value of a constant expression.
type constVal struct {
	kind cvKind
	i    *big.Int
	f    float64
	s    string
	b    bool
	char bool // an integer written as a character literal
	enum *symbol
	esym *symbol
}

var (
	minInt64  = new(big.Int).SetInt64(math.MinInt64)
	maxUint64 = new(big.Int).SetUint64(math.MaxUint64)
)

// eval computes e in scope.
func (g *gen) eval(e expr, scope []string) (constVal, error) {
	switch e := e.(type) {
	case *litExpr:
		return litVal(e.tok), nil
	case *nameExpr:
		sym, err := g.lookup(scope, e.name)
		if err != nil {
			return constVal{}, err
		}
		switch sym.kind {
		case symConst:
			return g.constValue(sym)
		case symEnumerator:
			return constVal{kind: cvEnum, i: big.NewInt(sym.value), enum: sym.parent, esym: sym}, nil
		default:
			return constVal{}, errAt(e.name.at, "%s is a %s, not a constant", e.name, sym.kind)
		}
	case *unaryExpr:
		x, err := g.eval(e.x, scope)
		if err != nil {
			return x, err
		}
		return unaryOp(e, x)
	case *binaryExpr:
		x, err := g.eval(e.x, scope)
		if err != nil {
			return x, err
		}
		y, err := g.eval(e.y, scope)
		if err != nil {
			return y, err
		}
		return binaryOp(e, x, y)
	}
	return constVal{}, errAt(e.exprPos(), "bad expression")
}

func litVal(t token) constVal {
	switch t.kind {
	case tInt:
		return constVal{kind: cvInt, i: t.ival}
	case tChar:
		return constVal{kind: cvInt, i: t.ival, char: true}
	case tFloat:
		return constVal{kind: cvFloat, f: t.fval}
	case tString:
		return constVal{kind: cvString, s: t.sval}
	default: // TRUE, FALSE
		return constVal{kind: cvBool, b: t.ival.Sign() != 0}
	}
}

func checkRange(at pos, v *big.Int) (constVal, error) {
	if v.Cmp(minInt64) < 0 || v.Cmp(maxUint64) > 0 {
		return constVal{}, errAt(at, "integer constant overflows 64 bits")
	}
	return constVal{kind: cvInt, i: v}, nil
}

func unaryOp(e *unaryExpr, x constVal) (constVal, error) {
	switch {
	case x.kind == cvInt && e.op == "-":
		return checkRange(e.at, new(big.Int).Neg(x.i))
	case x.kind == cvInt && e.op == "+":
		return constVal{kind: cvInt, i: x.i}, nil
	case x.kind == cvInt && e.op == "~":
		return checkRange(e.at, new(big.Int).Not(x.i))
	case x.kind == cvFloat && e.op == "-":
		return constVal{kind: cvFloat, f: -x.f}, nil
	case x.kind == cvFloat && e.op == "+":
		return x, nil
	}
	return constVal{}, errAt(e.at, "operator %s does not apply to a %s", e.op, x.kind)
}

func binaryOp(e *binaryExpr, x, y constVal) (constVal, error) {
	if x.kind == cvInt && y.kind == cvInt {
		return intOp(e, x.i, y.i)
	}
	if x.kind == cvFloat && y.kind == cvFloat || x.kind == cvFloat && y.kind == cvInt || x.kind == cvInt && y.kind == cvFloat {
		a, b := toFloat(x), toFloat(y)
		var r float64
		switch e.op {
		case "+":
			r = a + b
		case "-":
			r = a - b
		case "*":
			r = a * b
		case "/":
			if b == 0 {
				return constVal{}, errAt(e.at, "division by zero")
			}
			r = a / b
		default:
			return constVal{}, errAt(e.at, "operator %s does not apply to floating-point values", e.op)
		}
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return constVal{}, errAt(e.at, "floating-point constant overflows")
		}
		return constVal{kind: cvFloat, f: r}, nil
	}
	if x.kind == cvString && y.kind == cvString && e.op == "+" {
		return constVal{}, errAt(e.at, "strings do not add: write adjacent literals")
	}
	return constVal{}, errAt(e.at, "operator %s does not apply to a %s and a %s", e.op, x.kind, y.kind)
}

func toFloat(v constVal) float64 {
	if v.kind == cvFloat {
		return v.f
	}
	f, _ := new(big.Float).SetInt(v.i).Float64()
	return f
}

// intOps are the IDL operators on integers (IDL 4.2 §7.4.1.4.4.4); intOp checks
// the divisor and the shift count before it calls them.
var intOps = map[string]func(r, a, b *big.Int) *big.Int{
	"+":  (*big.Int).Add,
	"-":  (*big.Int).Sub,
	"*":  (*big.Int).Mul,
	"/":  (*big.Int).Quo,
	"%":  (*big.Int).Rem,
	"|":  (*big.Int).Or,
	"^":  (*big.Int).Xor,
	"&":  (*big.Int).And,
	"<<": func(r, a, b *big.Int) *big.Int { return r.Lsh(a, uint(b.Int64())) },
	">>": func(r, a, b *big.Int) *big.Int { return r.Rsh(a, uint(b.Int64())) },
}

func intOp(e *binaryExpr, a, b *big.Int) (constVal, error) {
	op, ok := intOps[e.op]
	switch {
	case !ok:
		return constVal{}, errAt(e.at, "operator %s does not apply to integers", e.op)
	case (e.op == "/" || e.op == "%") && b.Sign() == 0:
		return constVal{}, errAt(e.at, "division by zero")
	case (e.op == "<<" || e.op == ">>") && (b.Sign() < 0 || b.Cmp(big.NewInt(64)) >= 0):
		return constVal{}, errAt(e.at, "shift count %v out of range 0..63", b)
	}
	return checkRange(e.at, op(new(big.Int), a, b))
}

// article returns the kind with its indefinite article.
func (k cvKind) article() string { return withArticle(k.String()) }

func withArticle(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func (k cvKind) String() string {
	switch k {
	case cvInt:
		return "integer"
	case cvFloat:
		return "floating-point value"
	case cvString:
		return "string"
	case cvBool:
		return "boolean"
	default:
		return "enumerator"
	}
}

// intRanges are the value ranges of the IDL integer types.
var intRanges = map[string][2]*big.Int{}

func init() {
	r := func(lo, hi int64) [2]*big.Int { return [2]*big.Int{big.NewInt(lo), big.NewInt(hi)} }
	intRanges["short"] = r(math.MinInt16, math.MaxInt16)
	intRanges["unsigned short"] = r(0, math.MaxUint16)
	intRanges["long"] = r(math.MinInt32, math.MaxInt32)
	intRanges["unsigned long"] = r(0, math.MaxUint32)
	intRanges["long long"] = r(math.MinInt64, math.MaxInt64)
	intRanges["unsigned long long"] = [2]*big.Int{big.NewInt(0), maxUint64}
	intRanges["int8"] = r(math.MinInt8, math.MaxInt8)
	intRanges["uint8"] = r(0, math.MaxUint8)
	intRanges["octet"] = r(0, math.MaxUint8)
	intRanges["char"] = r(0, math.MaxUint8)
}

// convert checks v against the resolved type t and returns it as that type.
func convert(at pos, v constVal, t *gtype) (constVal, error) {
	u := t.underlying()
	switch {
	case u.kind == gPrim && intRanges[u.prim][0] != nil:
		return convertInt(at, v, u.prim)
	case u.kind == gPrim && (u.prim == "float" || u.prim == "double"):
		return convertFloat(at, v, u.prim)
	case u.kind == gPrim && u.prim == "boolean":
		if v.kind != cvBool {
			return v, errAt(at, "%s is not a boolean", v.kind.article())
		}
		return v, nil
	case u.kind == gString:
		if v.kind != cvString {
			return v, errAt(at, "%s is not a string", v.kind.article())
		}
		if u.bound > 0 && int64(len(v.s)) > u.bound {
			return v, errAt(at, "string of %d characters exceeds the bound %d", len(v.s), u.bound)
		}
		return v, nil
	case u.kind == gNamed && u.sym.kind == symEnum:
		if v.kind != cvEnum || v.enum != u.sym {
			return v, errAt(at, "%s is not an enumerator of %s", v.kind.article(), u.sym.scopedName())
		}
		return v, nil
	}
	return v, errAt(at, "constants of type %s are not supported", t.idl())
}

func convertInt(at pos, v constVal, prim string) (constVal, error) {
	if v.kind != cvInt {
		return v, errAt(at, "%s is not %s", v.kind.article(), withArticle(prim))
	}
	rg := intRanges[prim]
	if v.i.Cmp(rg[0]) < 0 || v.i.Cmp(rg[1]) > 0 {
		return v, errAt(at, "%v out of the range of %s", v.i, prim)
	}
	return v, nil
}

func convertFloat(at pos, v constVal, prim string) (constVal, error) {
	if v.kind != cvFloat && v.kind != cvInt {
		return v, errAt(at, "%s is not %s", v.kind.article(), withArticle(prim))
	}
	f := toFloat(v)
	if prim == "float" && math.Abs(f) > math.MaxFloat32 {
		return v, errAt(at, "%v out of the range of float", f)
	}
	return constVal{kind: cvFloat, f: f}, nil
}

func boolInt(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}
