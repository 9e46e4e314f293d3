package metadata

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/state"
)

// addFile adds a file of the managed user to the world's folder.
func (w *world) addFile(tx *state.Tx, name string) *state.Item {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	u := tx.User
	it := &state.Item{Typ: "file", ID: tx.NewID(), Name: name, ParentID: w.folder.ID, Owner: u, CreatedBy: u, ModBy: u, CreatedAt: now, ModifiedAt: now}
	it.Versions = []*state.Version{state.NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + it.ID, Size: 1}), now, u)}
	tx.AddItem(it)
	return it
}

// decodeParams decodes query_params as the handler does (numbers as
// json.Number).
func decodeParams(t *testing.T, s string) map[string]any {
	t.Helper()
	params := map[string]any{}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		t.Fatal(err)
	}
	return params
}

// TestPlanQuery: which plan the planner chooses for which query, on 1,000
// instances: customer C0000..C0999, amount i (none on every tenth),
// status draft on every fourth (final on the others), signed 2025-01-01
// plus i%100 days, regions eu.
func TestPlanQuery(t *testing.T) {
	w := newWorld(t)
	w.st.Update(func(tx *state.Tx) {
		for i := range 1000 {
			raw := map[string]any{"customer": fmt.Sprintf("C%04d", i), "status": "final", "regions": []any{"eu"},
				"signed": time.Date(2025, 1, 1+i%100, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)}
			if i%10 != 0 {
				raw["amount"] = json.Number(fmt.Sprint(i))
			}
			if i%4 == 0 {
				raw["status"] = "draft"
			}
			if _, err := CreateInstance(tx, w.path(w.addFile(tx, fmt.Sprintf("f%04d.pdf", i)), w.scope, "contract"), w.user, raw); err != nil {
				t.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		query, params, plan string
		cands               int
	}{
		{"", `{}`, "scan", 0},
		{"amount = :a", `{"a":5}`, "amount =5", 1},
		{"amount = :a", `{"a":10}`, "amount =10", 0}, // a tenth: no amount
		{"amount >= :a AND amount < :b", `{"a":11,"b":21}`, "amount [11,21)", 9},
		{"amount > :a", `{"a":990}`, "amount (990,∞)", 9},
		{"amount <= :a", `{"a":5}`, "amount (-∞,5]", 5},
		{"amount > :a", `{"a":10}`, "scan", 0}, // most of the template: not worth it
		{"amount IS NULL", `{}`, "amount null", 100},
		{"amount IS NOT NULL AND amount < :a", `{"a":3}`, "amount (-∞,3)", 2},
		{"amount IS NULL AND amount = :a", `{"a":5}`, "amount ∅", 0},
		{"amount > :a AND amount < :b", `{"a":50,"b":40}`, "amount ∅", 0},
		{"amount IN (:a, :b, :a)", `{"a":1,"b":2}`, "amount =1 | =2", 2},
		{"amount IN (:a, :b) AND amount > :c", `{"a":1,"b":2,"c":1}`, "amount =2", 1},
		{"status = :s", `{"s":"draft"}`, `status ="draft"`, 250},
		{"status HASANY (:s)", `{"s":"draft"}`, `status ="draft"`, 250},
		{"status = :s AND amount < :a", `{"s":"draft","a":5}`, "amount (-∞,5)", 4},
		{"amount < :a AND status = :s", `{"s":"draft","a":5}`, "amount (-∞,5)", 4},
		{"customer LIKE :p", `{"p":"C001%"}`, `customer ^"C001"`, 10},
		{"customer LIKE :p", `{"p":"C00_1"}`, `customer ^"C00"`, 100},
		{"customer LIKE :p AND customer >= :c", `{"p":"C001%","c":"C0015"}`, `customer ["C0015",∞) ^"C001"`, 5},
		{"customer LIKE :p AND customer LIKE :q", `{"p":"C00%","q":"C001%"}`, `customer ^"C001"`, 10},
		{"customer LIKE :p AND customer LIKE :q", `{"p":"C01%","q":"C02%"}`, "customer ∅", 0},
		{"customer ILIKE :p", `{"p":"c001%"}`, `customer ^"C001" | ^"c001"`, 10},
		{"customer ILIKE :p", `{"p":"%001"}`, "scan", 0},
		{"customer NOT ILIKE :p", `{"p":"c001%"}`, "scan", 0},
		{"customer ILIKE :p AND customer LIKE :q", `{"p":"c00%","q":"C0012%"}`, `customer ^"C0012"`, 1},
		{"customer LIKE :p", `{"p":"%1"}`, "scan", 0},
		{"customer NOT LIKE :p", `{"p":"C001%"}`, "scan", 0},
		{"customer = :c OR amount = :a", `{"c":"C0007","a":5}`, `union(customer ="C0007"; amount =5)`, 2},
		{"customer = :c OR amount = :a", `{"c":"C0005","a":5}`, `union(customer ="C0005"; amount =5)`, 1},
		{"customer = :c OR regions HASANY (:r)", `{"c":"C0007","r":"eu"}`, "scan", 0},
		{"regions HASANY (:r) AND amount = :a", `{"r":"eu","a":5}`, "amount =5", 1},
		{"(amount = :a OR amount = :b) AND status = :s", `{"a":4,"b":5,"s":"draft"}`, "union(amount =4; amount =5)", 2},
		{"NOT amount = :a", `{"a":5}`, "scan", 0},
		{"amount <> :a", `{"a":5}`, "scan", 0},
		{"amount NOT IN (:a)", `{"a":5}`, "scan", 0},
		{"item.name = :n", `{"n":"f0001.pdf"}`, "scan", 0},
		{"item.name = :n AND amount = :a", `{"n":"f0001.pdf","a":1}`, "amount =1", 1},
		{"signed = :d", `{"d":"2025-01-05T00:00:00Z"}`, "signed =2025-01-05T00:00:00.000Z", 10},
		{"signed < :d", `{"d":"2025-01-03T00:00:00Z"}`, "signed (-∞,2025-01-03T00:00:00.000Z)", 20},
	} {
		t.Run(c.query+" "+c.params, func(t *testing.T) {
			tree, perr := mdquery.Parse(c.query)
			if perr != nil {
				t.Fatal(perr)
			}
			params := decodeParams(t, c.params)
			w.st.Update(func(tx *state.Tx) {
				tmpl := tx.Template(w.scope, "contract")
				if _, aerr := CompileQuery(tx, tree, tmpl, params); aerr != nil {
					t.Fatal(aerr)
				}
				p := PlanQuery(tmpl, tree, params)
				if p.String() != c.plan || p.Candidates() != c.cands {
					t.Fatalf("plan %s (%d candidates), want %s (%d)", p, p.Candidates(), c.plan, c.cands)
				}
				if p.Scan() != (c.plan == "scan") {
					t.Fatalf("Scan() = %v for %s", p.Scan(), p)
				}
			})
		})
	}
}

// TestPlanMatchesScan is a differential test: random queries over random
// instances (nulls, duplicates, negative and fractional numbers, LIKE
// metacharacters), in random orders and page sizes, followed to the last
// page by marker, answer the same instances in the same order with the
// planner's candidates as with a scan of every instance, while instances
// are created, changed and deleted between the rounds (the indexes the
// planner reads are kept in step).
func TestPlanMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	w := newWorld(t)
	pick := func(pool []any) any { return pool[rng.IntN(len(pool))] }
	customers := []any{"a", "ab", "abc", "abd", "b", "B", "b%", "a_c", "", "é", "éa", `ab\`, "zz", "Ab", "ÉA", "K\u212a"}
	amounts := []any{json.Number("-1.5"), json.Number("0"), json.Number("1"), json.Number("2"), json.Number("2.0"), json.Number("2.5"), json.Number("3"), json.Number("10"), json.Number("100")}
	dates := []any{"2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "2025-01-02T12:00:00Z", "2025-02-01T00:00:00Z", "2024-12-31T23:00:00-02:00"}
	statuses := []any{"draft", "final"}
	regions := []any{[]any{}, []any{"eu"}, []any{"us"}, []any{"eu", "us"}}
	pools := map[string][]any{"customer": customers, "amount": amounts, "signed": dates, "status": statuses, "regions": regions,
		"item.name": {"f1.pdf", "f2.pdf", "f3.pdf"}}
	fields := []string{"customer", "amount", "signed", "status", "regions", "item.name"}
	values := func() map[string]any {
		raw := map[string]any{}
		for _, f := range fields[:5] {
			if rng.IntN(5) > 0 { // a fifth of the values are null
				raw[f] = pick(pools[f])
			}
		}
		return raw
	}
	var files []*state.Item
	w.st.Update(func(tx *state.Tx) {
		for i := range 200 {
			it := w.addFile(tx, fmt.Sprintf("f%d.pdf", i%4))
			files = append(files, it)
			if _, err := CreateInstance(tx, w.path(it, w.scope, "contract"), w.user, values()); err != nil {
				t.Fatal(err)
			}
		}
	})

	likes := []any{"a%", "ab%", "a_%", "%b", "a", `b\%%`, `a\_c`, "é%", "%", "ab_", `ab\`, "B%", "k%"}
	var leaf func(params map[string]any) *mdquery.Node
	leaf = func(params map[string]any) *mdquery.Node {
		f := fields[rng.IntN(len(fields))]
		n := &mdquery.Node{Field: f}
		param := func(v any) {
			name := fmt.Sprintf("p%d", len(params))
			if rng.IntN(40) == 0 { // now and then a value of another field's type
				v = pick(pools[fields[rng.IntN(len(fields))]])
			}
			params[name] = v
			n.Params = append(n.Params, name)
		}
		kinds := map[string][]string{"customer": {"cmp", "cmp", "like", "in", "null"}, "amount": {"cmp", "cmp", "in", "null"},
			"signed": {"cmp", "cmp", "in", "null"}, "status": {"cmp", "in", "has", "null"}, "regions": {"has", "has", "null"},
			"item.name": {"cmp", "like", "in", "null"}}[f]
		if rng.IntN(20) == 0 { // now and then an operator the field does not take
			kinds = []string{"cmp", "like", "in", "has", "null"}
		}
		switch kinds[rng.IntN(len(kinds))] {
		case "cmp":
			n.Kind, n.Op = "cmp", []string{"=", "=", "<>", "<", "<=", ">", ">="}[rng.IntN(7)]
			param(pick(pools[f]))
		case "like":
			n.Kind, n.Not, n.Fold = "like", rng.IntN(4) == 0, rng.IntN(4) == 0
			param(pick(likes))
		case "in":
			n.Kind, n.Not = "in", rng.IntN(4) == 0
			for range 1 + rng.IntN(3) {
				param(pick(pools[f]))
			}
		case "has":
			n.Kind, n.All = "has", rng.IntN(2) == 0
			for range 1 + rng.IntN(2) {
				v := pick(pools[f])
				if l, ok := v.([]any); ok {
					v = "eu"
					if len(l) > 0 {
						v = l[0]
					}
				}
				param(v)
			}
		default:
			n.Kind, n.Not = "null", rng.IntN(3) == 0
		}
		return n
	}
	var query func(params map[string]any, depth int) *mdquery.Node
	query = func(params map[string]any, depth int) *mdquery.Node {
		if depth == 0 || rng.IntN(3) == 0 {
			return leaf(params)
		}
		switch rng.IntN(5) {
		case 0:
			return &mdquery.Node{Kind: "not", Kids: []*mdquery.Node{query(params, depth-1)}}
		case 1, 2:
			n := &mdquery.Node{Kind: "or"}
			for range 2 + rng.IntN(2) {
				n.Kids = append(n.Kids, query(params, depth-1))
			}
			return n
		}
		n := &mdquery.Node{Kind: "and"}
		for range 2 + rng.IntN(2) {
			n.Kids = append(n.Kids, query(params, depth-1))
		}
		return n
	}
	str := func(s string) *string { return &s }
	orders := [][]orderByBody{
		nil,
		{{FieldKey: str("amount")}},
		{{FieldKey: str("amount"), Direction: str("DESC")}},
		{{FieldKey: str("customer"), Direction: str("ASC")}},
		{{FieldKey: str("signed"), Direction: str("DESC")}},
		{{FieldKey: str("item.name")}},
		{{FieldKey: str("status")}, {FieldKey: str("amount")}},
	}
	// run follows a query to its last page and lists the instances met.
	run := func(tx *state.Tx, tmpl *state.MDTemplate, o QueryOrder, pred predicate, plan *Plan, keep func(*state.MDInstance) bool, limit int) []int64 {
		var seqs []int64
		var after *state.Position
		for range len(tmpl.BySeq) + 2 {
			page, more := SelectPage(tx, tmpl, o, pred, plan, keep, after, limit)
			for _, in := range page {
				seqs = append(seqs, in.Seq)
			}
			if !more {
				return seqs
			}
			pos := PositionOf(tx, o, page[len(page)-1])
			after = &pos
		}
		t.Fatal("paging does not end")
		return nil
	}
	// change changes the instances: new values for some, some deleted,
	// some created (on files that lost theirs, or new ones).
	change := func(tx *state.Tx, tmpl *state.MDTemplate) {
		for range 40 {
			it := files[rng.IntN(len(files))]
			in := tmpl.Instances[tx.Items.Ref(it)]
			switch {
			case in == nil:
				if _, err := CreateInstance(tx, w.path(it, w.scope, "contract"), w.user, values()); err != nil {
					t.Fatal(err)
				}
			case rng.IntN(4) == 0:
				if _, err := DeleteInstance(tx, w.path(it, w.scope, "contract"), w.user); err != nil {
					t.Fatal(err)
				}
			default:
				vals, merr := TemplateValues(tmpl, values())
				if merr != nil {
					t.Fatal(merr)
				}
				SetValues(tx, in, vals)
			}
		}
	}
	planned, nonEmpty, queries := 0, 0, 0
	w.st.StartMetadataIndexer() // ResetIndexes registers indexes for it
	t.Cleanup(w.st.StopMetadataIndexer)
	for round := range 8 {
		w.st.Update(func(tx *state.Tx) {
			tmpl := tx.Template(w.scope, "contract")
			partial := round%2 == 1
			if partial {
				// Indexes as the builder leaves them midway: some
				// complete, one partly built, the others empty.
				tx.ResetIndexes(tmpl)
				for range rng.IntN(8) {
					tx.BuildIndexStep(1 + rng.IntN(150))
				}
			} else {
				for tx.BuildIndexStep(1 << 20) { // complete, whether the builder came by or not
				}
			}
			for q := range 250 {
				if partial && q == 125 {
					change(tx, tmpl) // kept in step by partial indexes
				}
				params := map[string]any{}
				tree := query(params, 3)
				pred, aerr := CompileQuery(tx, tree, tmpl, params)
				if aerr != nil {
					continue
				}
				o, aerr := queryOrderOf(tmpl, orders[rng.IntN(len(orders))])
				if aerr != nil {
					continue // an order by a field that does not sort
				}
				limit := []int{1, 2, 3, 7, 100}[rng.IntN(5)]
				hidden := int64(rng.IntN(5) + 2)
				keep := func(in *state.MDInstance) bool { return in.Seq%hidden != 0 } // as the trash and the ancestor do
				plan := PlanQuery(tmpl, tree, params)
				want := run(tx, tmpl, o, pred, &Plan{t: tmpl}, keep, limit)
				got := run(tx, tmpl, o, pred, plan, keep, limit)
				if !slices.Equal(got, want) {
					t.Fatalf("round %d, %s %v (order %v, limit %d): plan %s answers %v, the scan %v",
						round, renderNode(tree), params, o.Keys, limit, plan, got, want)
				}
				queries++
				if !plan.Scan() {
					planned++
				}
				if len(want) > 0 {
					nonEmpty++
				}
			}
			if !partial {
				change(tx, tmpl)
			}
			it := w.addFile(tx, "f9.pdf")
			files = append(files, it)
			if _, err := CreateInstance(tx, w.path(it, w.scope, "contract"), w.user, values()); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Logf("%d queries, %d planned, %d with results", queries, planned, nonEmpty)
	if planned < queries/5 || nonEmpty < queries/4 {
		t.Fatalf("too few planned (%d) or answered (%d) queries of %d to compare", planned, nonEmpty, queries)
	}
}

// renderNode writes a query tree back as query text, for messages.
func renderNode(n *mdquery.Node) string {
	if n == nil {
		return ""
	}
	var kids []string
	for _, k := range n.Kids {
		kids = append(kids, "("+renderNode(k)+")")
	}
	params := make([]string, len(n.Params))
	for i, p := range n.Params {
		params[i] = ":" + p
	}
	not := ""
	if n.Not {
		not = "NOT "
	}
	switch n.Kind {
	case "and", "or":
		return strings.Join(kids, " "+strings.ToUpper(n.Kind)+" ")
	case "not":
		return "NOT " + kids[0]
	case "cmp":
		return n.Field + " " + n.Op + " " + params[0]
	case "like":
		op := "LIKE"
		if n.Fold {
			op = "ILIKE"
		}
		return n.Field + " " + not + op + " " + params[0]
	case "in":
		return n.Field + " " + not + "IN (" + strings.Join(params, ", ") + ")"
	case "has":
		op := "HASANY"
		if n.All {
			op = "HASALL"
		}
		return n.Field + " " + op + " (" + strings.Join(params, ", ") + ")"
	}
	if n.Not {
		return n.Field + " IS NOT NULL"
	}
	return n.Field + " IS NULL"
}

// String describes the plan as it is for a set of up to maxCandidates:
// "scan", or the index reads it chose, e.g. `amount [10,20)`,
// `status ="draft" | ="final"`, `customer ^"Acme"`,
// `union(amount =5; customer ^"B")`.
func (p *Plan) String() string {
	if r, ok := p.resolveMax(); ok {
		return r.via.String()
	}
	return "scan"
}

// Scan reports whether the plan reads every instance (no candidate set of
// up to maxCandidates).
func (p *Plan) Scan() bool {
	_, ok := p.resolveMax()
	return !ok
}

// Candidates is the number of instances the plan has the predicate test
// (0 for a scan).
func (p *Plan) Candidates() int {
	r, _ := p.resolveMax()
	return len(r.cands)
}

func (p *Plan) resolveMax() (resolved, bool) {
	if p.root == nil {
		return resolved{}, false
	}
	return p.resolve(p.root, maxCandidates(len(p.t.BySeq)))
}

// String describes the index reads of a candidate set.
func (v *readVia) String() string {
	if v.acc == nil {
		parts := make([]string, len(v.union))
		for i, u := range v.union {
			parts[i] = u.String()
		}
		return "union(" + strings.Join(parts, "; ") + ")"
	}
	if len(v.acc.ranges) == 0 {
		return v.acc.field + " ∅"
	}
	parts := make([]string, len(v.acc.ranges))
	for i, r := range v.acc.ranges {
		parts[i] = r.String()
	}
	return v.acc.field + " " + strings.Join(parts, " | ")
}

// String renders a range: =v, ^"prefix", null, or an interval.
func (r keyRange) String() string {
	val := func(v state.MDVal) string {
		if v.Kind == state.ValString {
			return `"` + v.S + `"`
		}
		return v.S
	}
	switch {
	case r.null:
		return "null"
	case r.lo.set && r.hi.set && r.lo.incl && r.hi.incl && state.CmpVals(r.lo.v, r.hi.v) == 0:
		return "=" + val(r.lo.v)
	case r.prefix != "" && !r.hi.set && r.lo.v.S == r.prefix:
		return `^"` + r.prefix + `"`
	}
	var b strings.Builder
	if r.lo.set && r.lo.incl {
		b.WriteString("[" + val(r.lo.v))
	} else if r.lo.set {
		b.WriteString("(" + val(r.lo.v))
	} else {
		b.WriteString("(-∞")
	}
	b.WriteString(",")
	if r.hi.set && r.hi.incl {
		b.WriteString(val(r.hi.v) + "]")
	} else if r.hi.set {
		b.WriteString(val(r.hi.v) + ")")
	} else {
		b.WriteString("∞)")
	}
	if r.prefix != "" {
		b.WriteString(` ^"` + r.prefix + `"`)
	}
	return b.String()
}
