package governance

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// world is a state in memory with a folder of the managed user's that
// holds one file of one version, and a clock the test moves.
type world struct {
	t            *testing.T
	st           *state.State
	now          time.Time
	admin        *state.Principal
	folder, file *state.Item
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	st, err := state.NewMemory(&state.Env{Now: func() time.Time { return w.now }})
	if err != nil {
		t.Fatal(err)
	}
	w.st = st
	st.Update(func(tx *state.Tx) {
		w.admin = tx.Principals[tx.Cfg.AdminToken]
		w.folder = w.addItem(tx, "folder", "cases", state.RootID)
		w.file = w.addItem(tx, "file", "brief.txt", w.folder.ID)
	})
	return w
}

func (w *world) addItem(tx *state.Tx, typ, name, parent string) *state.Item {
	u := tx.User
	it := &state.Item{Typ: typ, ID: tx.NewID(), Name: name, ParentID: parent, Owner: u, CreatedBy: u, ModBy: u,
		CreatedAt: w.now, ModifiedAt: w.now}
	if typ == "file" {
		it.Versions = []*state.Version{state.NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + it.ID, Size: 1}), w.now, u)}
	}
	tx.AddItem(it)
	return it
}

// update runs fn in a transaction.
func (w *world) update(fn func(tx *state.Tx)) { w.st.Update(fn) }

// code is the status of aerr, 0 for none.
func code(aerr *wire.Error) int {
	if aerr == nil {
		return 0
	}
	return aerr.Status
}

// policy creates a retention policy (the handler's checks already made).
func (w *world) policy(tx *state.Tx, name, typ string, days int, retType string) *state.RetentionPolicy {
	w.t.Helper()
	rp := &state.RetentionPolicy{Name: name, PolicyType: typ, Days: days, Disposition: state.DispositionDelete,
		RetentionType: retType, Status: state.RetentionStatusActive, CreatedBy: tx.Admin}
	if _, aerr := CreateRetentionPolicy(tx, RetentionPolicyBody{}, rp); aerr != nil {
		w.t.Fatalf("create policy %s: %v", name, aerr)
	}
	return rp
}

// assign puts rp on a target.
func (w *world) assign(tx *state.Tx, rp *state.RetentionPolicy, toType, toID, startField string) *wire.Error {
	a := &state.RetentionAssignment{ToType: toType, ToID: toID, StartDateField: startField, By: tx.Admin}
	_, aerr := CreateRetentionAssignment(tx, RetentionAssignmentBody{PolicyID: &rp.ID}, a, w.admin)
	return aerr
}

func raw(v string) json.RawMessage { return json.RawMessage(v) }

// TestRetentionLength is the rule of retention_length for each policy
// type, with and without the length required (POST and PUT).
func TestRetentionLength(t *testing.T) {
	for _, c := range []struct {
		name     string
		raw      string
		typ      string
		required bool
		days     int
		status   int
	}{
		{"finite number", `30`, state.RetentionFinite, true, 30, 0},
		{"finite digits", `"45"`, state.RetentionFinite, true, 45, 0},
		{"finite absent required", ``, state.RetentionFinite, true, 0, 400},
		{"finite null required", `null`, state.RetentionFinite, true, 0, 400},
		{"finite absent on update", ``, state.RetentionFinite, false, 0, 0},
		{"finite word", `"indefinite"`, state.RetentionFinite, true, 0, 400},
		{"finite zero", `0`, state.RetentionFinite, true, 0, 400},
		{"finite negative", `-3`, state.RetentionFinite, false, 0, 400},
		{"finite beyond int32", `2147483648`, state.RetentionFinite, false, 0, 400},
		{"finite fraction", `1.5`, state.RetentionFinite, false, 0, 400},
		{"indefinite absent", ``, state.RetentionIndefinite, true, 0, 0},
		{"indefinite word", `"indefinite"`, state.RetentionIndefinite, true, 0, 0},
		{"indefinite days", `30`, state.RetentionIndefinite, true, 0, 400},
		{"indefinite garbage", `"soon"`, state.RetentionIndefinite, false, 0, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			days, aerr := RetentionLength(raw(c.raw), c.typ, c.required)
			if code(aerr) != c.status || days != c.days {
				t.Fatalf("RetentionLength(%s, %s, %v) = %d, %v; want %d, status %d", c.raw, c.typ, c.required, days, aerr, c.days, c.status)
			}
		})
	}
}

// TestCheckMaxExtension: max_extension_length only for a finite policy
// that deletes; "none" always.
func TestCheckMaxExtension(t *testing.T) {
	for _, c := range []struct {
		raw, typ, disp string
		days, status   int
	}{
		{`"none"`, state.RetentionIndefinite, state.DispositionRemove, 0, 0},
		{`10`, state.RetentionFinite, state.DispositionDelete, 10, 0},
		{`10`, state.RetentionFinite, state.DispositionRemove, 0, 400},
		{`10`, state.RetentionIndefinite, state.DispositionDelete, 0, 400},
		{`"x"`, state.RetentionFinite, state.DispositionDelete, 0, 400},
	} {
		days, aerr := CheckMaxExtension(raw(c.raw), c.typ, c.disp)
		if code(aerr) != c.status || days != c.days {
			t.Errorf("CheckMaxExtension(%s, %s, %s) = %d, %v; want %d, status %d", c.raw, c.typ, c.disp, days, aerr, c.days, c.status)
		}
	}
}

// TestUpdateRetentionPolicyRules runs PUT's rules on a modifiable and a
// non-modifiable finite policy and an indefinite one: each change is
// checked in full before the policy takes it.
func TestUpdateRetentionPolicyRules(t *testing.T) {
	type policies struct{ mod, fixed, forever *state.RetentionPolicy }
	for _, c := range []struct {
		name   string
		target func(policies) *state.RetentionPolicy
		body   string
		status int
		check  func(t *testing.T, rp *state.RetentionPolicy)
	}{
		{"lengthen modifiable", func(p policies) *state.RetentionPolicy { return p.mod }, `{"retention_length":60}`, 200,
			func(t *testing.T, rp *state.RetentionPolicy) {
				if rp.Days != 60 {
					t.Errorf("days %d, want 60", rp.Days)
				}
			}},
		{"shorten modifiable", func(p policies) *state.RetentionPolicy { return p.mod }, `{"retention_length":5}`, 200, nil},
		{"shorten non-modifiable", func(p policies) *state.RetentionPolicy { return p.fixed }, `{"retention_length":5}`, 403, nil},
		{"lengthen non-modifiable", func(p policies) *state.RetentionPolicy { return p.fixed }, `{"retention_length":90}`, 200, nil},
		{"non-modifiable made modifiable", func(p policies) *state.RetentionPolicy { return p.fixed }, `{"retention_type":"modifiable"}`, 403, nil},
		{"modifiable made non-modifiable", func(p policies) *state.RetentionPolicy { return p.mod }, `{"retention_type":"non_modifiable"}`, 200,
			func(t *testing.T, rp *state.RetentionPolicy) {
				if rp.RetentionType != state.RetentionNonModifiable {
					t.Errorf("retention_type %s", rp.RetentionType)
				}
			}},
		{"length on indefinite", func(p policies) *state.RetentionPolicy { return p.forever }, `{"retention_length":5}`, 400, nil},
		{"word on indefinite", func(p policies) *state.RetentionPolicy { return p.forever }, `{"retention_length":"indefinite"}`, 200, nil},
		{"word on finite", func(p policies) *state.RetentionPolicy { return p.mod }, `{"retention_length":"indefinite"}`, 400, nil},
		{"max extension on indefinite", func(p policies) *state.RetentionPolicy { return p.forever }, `{"max_extension_length":3}`, 400, nil},
		{"empty name", func(p policies) *state.RetentionPolicy { return p.mod }, `{"policy_name":" "}`, 400, nil},
		{"name taken, other case", func(p policies) *state.RetentionPolicy { return p.mod }, `{"policy_name":"FIXED"}`, 409, nil},
		{"bad disposition", func(p policies) *state.RetentionPolicy { return p.mod }, `{"disposition_action":"shred"}`, 400, nil},
		{"status other than retired", func(p policies) *state.RetentionPolicy { return p.mod }, `{"status":"paused"}`, 400, nil},
		{"unknown recipient", func(p policies) *state.RetentionPolicy { return p.mod }, `{"custom_notification_recipients":[{"type":"user","id":"404"}]}`, 400, nil},
		{"retire non-modifiable", func(p policies) *state.RetentionPolicy { return p.fixed }, `{"status":"retired"}`, 200,
			func(t *testing.T, rp *state.RetentionPolicy) {
				if rp.Status != state.RetentionStatusRetired {
					t.Errorf("status %s", rp.Status)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.update(func(tx *state.Tx) {
				p := policies{
					mod:     w.policy(tx, "mod", state.RetentionFinite, 30, state.RetentionModifiable),
					fixed:   w.policy(tx, "fixed", state.RetentionFinite, 30, state.RetentionNonModifiable),
					forever: w.policy(tx, "forever", state.RetentionIndefinite, 0, state.RetentionModifiable),
				}
				rp := c.target(p)
				before := *rp
				var b RetentionPolicyBody
				if err := json.Unmarshal([]byte(c.body), &b); err != nil {
					t.Fatal(err)
				}
				reply, aerr := UpdateRetentionPolicy(tx, rp.ID, b)
				switch {
				case c.status == 200 && aerr != nil:
					t.Fatalf("refused: %v", aerr)
				case c.status == 200 && reply.Status != wire.StatusOK:
					t.Fatalf("status %d", reply.Status)
				case c.status != 200 && code(aerr) != c.status:
					t.Fatalf("got %v, want status %d", aerr, c.status)
				case c.status != 200 && (rp.Days != before.Days || rp.Name != before.Name || rp.RetentionType != before.RetentionType || rp.Status != before.Status):
					t.Fatalf("a refused change changed the policy: %+v, was %+v", *rp, before)
				}
				if c.check != nil {
					c.check(t, rp)
				}
			})
		})
	}
}

// TestRetiredPolicyStaysRetired: retiring is one-way.
func TestRetiredPolicyStaysRetired(t *testing.T) {
	w := newWorld(t)
	w.update(func(tx *state.Tx) {
		rp := w.policy(tx, "p", state.RetentionFinite, 10, state.RetentionModifiable)
		var retire, revive RetentionPolicyBody
		_ = json.Unmarshal([]byte(`{"status":"retired"}`), &retire)
		_ = json.Unmarshal([]byte(`{"status":"active"}`), &revive)
		if _, aerr := UpdateRetentionPolicy(tx, rp.ID, retire); aerr != nil {
			t.Fatal(aerr)
		}
		if _, aerr := UpdateRetentionPolicy(tx, rp.ID, revive); code(aerr) != 400 {
			t.Fatalf("revive: %v, want 400", aerr)
		}
		if aerr := w.assign(tx, rp, state.AssignEnterprise, "", ""); code(aerr) != 400 {
			t.Fatalf("assigning a retired policy: %v, want 400", aerr)
		}
	})
}

// TestRetentionAssignmentRules: what an assignment may target, and that a
// target takes no second policy retaining as long or less.
func TestRetentionAssignmentRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		run    func(w *world, tx *state.Tx) *wire.Error
		status int
	}{
		{"enterprise", func(w *world, tx *state.Tx) *wire.Error {
			return w.assign(tx, w.policy(tx, "p", state.RetentionFinite, 10, state.RetentionModifiable), state.AssignEnterprise, "", "")
		}, 0},
		{"folder", func(w *world, tx *state.Tx) *wire.Error {
			return w.assign(tx, w.policy(tx, "p", state.RetentionFinite, 10, state.RetentionModifiable), state.AssignFolder, w.folder.ID, "")
		}, 0},
		{"root folder", func(w *world, tx *state.Tx) *wire.Error {
			return w.assign(tx, w.policy(tx, "p", state.RetentionFinite, 10, state.RetentionModifiable), state.AssignFolder, state.RootID, "")
		}, 400},
		{"unknown folder", func(w *world, tx *state.Tx) *wire.Error {
			return w.assign(tx, w.policy(tx, "p", state.RetentionFinite, 10, state.RetentionModifiable), state.AssignFolder, "999", "")
		}, 404},
		{"start date field on indefinite", func(w *world, tx *state.Tx) *wire.Error {
			return w.assign(tx, w.policy(tx, "p", state.RetentionIndefinite, 0, state.RetentionModifiable), state.AssignEnterprise, "", state.StartDateUploadDate)
		}, 400},
		{"shorter policy on a retained target", func(w *world, tx *state.Tx) *wire.Error {
			long := w.policy(tx, "long", state.RetentionFinite, 30, state.RetentionModifiable)
			if aerr := w.assign(tx, long, state.AssignFolder, w.folder.ID, ""); aerr != nil {
				return aerr
			}
			return w.assign(tx, w.policy(tx, "short", state.RetentionFinite, 10, state.RetentionModifiable), state.AssignFolder, w.folder.ID, "")
		}, 409},
		{"longer policy on a retained target", func(w *world, tx *state.Tx) *wire.Error {
			short := w.policy(tx, "short", state.RetentionFinite, 10, state.RetentionModifiable)
			if aerr := w.assign(tx, short, state.AssignFolder, w.folder.ID, ""); aerr != nil {
				return aerr
			}
			return w.assign(tx, w.policy(tx, "long", state.RetentionFinite, 30, state.RetentionModifiable), state.AssignFolder, w.folder.ID, "")
		}, 0},
		{"finite after indefinite", func(w *world, tx *state.Tx) *wire.Error {
			if aerr := w.assign(tx, w.policy(tx, "forever", state.RetentionIndefinite, 0, state.RetentionModifiable), state.AssignEnterprise, "", ""); aerr != nil {
				return aerr
			}
			return w.assign(tx, w.policy(tx, "long", state.RetentionFinite, 3650, state.RetentionModifiable), state.AssignEnterprise, "", "")
		}, 409},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.update(func(tx *state.Tx) {
				if aerr := c.run(w, tx); code(aerr) != c.status {
					t.Fatalf("got %v, want status %d", aerr, c.status)
				}
			})
		})
	}
}

// TestRetentionBlocksPurge: a retained version keeps its file and its
// folder from being deleted for good until the disposition date; an
// indefinite policy never lets go; removing the policy lifts what it
// alone retained.
func TestRetentionBlocksPurge(t *testing.T) {
	for _, c := range []struct {
		name    string
		typ     string
		days    int
		later   time.Duration
		blocked bool
	}{
		{"finite, before disposition", state.RetentionFinite, 10, 9 * 24 * time.Hour, true},
		{"finite, at disposition", state.RetentionFinite, 10, 10 * 24 * time.Hour, false},
		{"indefinite, years later", state.RetentionIndefinite, 0, 10 * 365 * 24 * time.Hour, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.update(func(tx *state.Tx) {
				rp := w.policy(tx, "p", c.typ, c.days, state.RetentionModifiable)
				if aerr := w.assign(tx, rp, state.AssignFolder, w.folder.ID, ""); aerr != nil {
					t.Fatal(aerr)
				}
				if _, ok := tx.Retention.ByVersion[w.file.Current().ID]; !ok {
					t.Fatal("the assignment did not retain the file's version")
				}
			})
			w.now = w.now.Add(c.later)
			w.update(func(tx *state.Tx) {
				for _, it := range []*state.Item{w.file, w.folder} {
					aerr := tx.PurgeBlocked(it)
					if (aerr != nil) != c.blocked {
						t.Fatalf("PurgeBlocked(%s) = %v, want blocked %v", it.Typ, aerr, c.blocked)
					}
					if aerr != nil && (aerr.Status != 403 || aerr.ContextInfo.(map[string]any)["file_version_retention"] == nil) {
						t.Fatalf("refusal %+v: want 403 naming the file version retention", aerr)
					}
				}
			})
		})
	}
}

// TestRemoveRetentionPolicy: a non-modifiable policy stays; removing a
// modifiable one takes its assignments.
func TestRemoveRetentionPolicy(t *testing.T) {
	w := newWorld(t)
	w.update(func(tx *state.Tx) {
		fixed := w.policy(tx, "fixed", state.RetentionFinite, 10, state.RetentionNonModifiable)
		if aerr := RemoveRetentionPolicy(tx, fixed); code(aerr) != 403 {
			t.Fatalf("removing a non-modifiable policy: %v, want 403", aerr)
		}
		mod := w.policy(tx, "mod", state.RetentionIndefinite, 0, state.RetentionModifiable)
		if aerr := w.assign(tx, mod, state.AssignEnterprise, "", ""); aerr != nil {
			t.Fatal(aerr)
		}
		if aerr := RemoveRetentionPolicy(tx, mod); aerr != nil {
			t.Fatal(aerr)
		}
		if _, aerr := RetentionPolicyByID(tx, mod.ID); code(aerr) != 404 {
			t.Fatalf("the removed policy is still found: %v", aerr)
		}
		for _, a := range tx.Retention.AssignOrder {
			if a.Policy == mod {
				t.Fatal("an assignment of the removed policy remains")
			}
		}
		if aerr := tx.PurgeBlocked(w.file); aerr != nil {
			t.Fatalf("the file is still retained: %v", aerr)
		}
	})
}

// holdPolicy creates a legal hold policy.
func (w *world) holdPolicy(tx *state.Tx, name string) *state.LegalHoldPolicy {
	w.t.Helper()
	hp := &state.LegalHoldPolicy{Name: name, Ongoing: true, CreatedBy: tx.Admin}
	if _, aerr := CreateLegalHoldPolicy(tx, hp); aerr != nil {
		w.t.Fatal(aerr)
	}
	return hp
}

// hold assigns hp to a target.
func (w *world) hold(tx *state.Tx, hp *state.LegalHoldPolicy, toType, toID string) (*state.LegalHoldAssignment, *wire.Error) {
	a := &state.LegalHoldAssignment{ToType: toType, ToID: toID, By: tx.Admin}
	_, aerr := CreateLegalHoldAssignment(tx, LegalHoldAssignmentBody{PolicyID: &hp.ID}, w.admin, a)
	return a, aerr
}

// TestLegalHoldTargets: each kind of target holds what it covers, and
// blocks the purge of the file and of its folder.
func TestLegalHoldTargets(t *testing.T) {
	for _, c := range []struct {
		name   string
		typ    string
		id     func(w *world, tx *state.Tx) string
		status int
		holds  bool
	}{
		{"file", "file", func(w *world, _ *state.Tx) string { return w.file.ID }, 0, true},
		{"file version", "file_version", func(w *world, _ *state.Tx) string { return w.file.Current().ID }, 0, true},
		{"folder", "folder", func(w *world, _ *state.Tx) string { return w.folder.ID }, 0, true},
		{"owner as custodian", "user", func(_ *world, tx *state.Tx) string { return tx.User.ID }, 0, true},
		{"ownership", "ownership", func(_ *world, tx *state.Tx) string { return tx.User.ID }, 0, true},
		{"uploader", "interactions", func(_ *world, tx *state.Tx) string { return tx.User.ID }, 0, true},
		{"another custodian", "user", func(_ *world, tx *state.Tx) string { return tx.Admin.ID }, 0, false},
		{"unknown file", "file", func(*world, *state.Tx) string { return "999" }, 404, false},
		{"unknown user", "user", func(*world, *state.Tx) string { return "999" }, 404, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.update(func(tx *state.Tx) {
				hp := w.holdPolicy(tx, "case")
				if _, aerr := w.hold(tx, hp, c.typ, c.id(w, tx)); code(aerr) != c.status {
					t.Fatalf("assign: %v, want status %d", aerr, c.status)
				}
				_, held := tx.Holds.ByVersion[w.file.Current().ID]
				if held != c.holds {
					t.Fatalf("version held %v, want %v", held, c.holds)
				}
				for _, it := range []*state.Item{w.file, w.folder} {
					aerr := tx.PurgeBlocked(it)
					if (aerr != nil) != c.holds || aerr != nil && aerr.ContextInfo.(map[string]any)["file_version_legal_hold"] == nil {
						t.Fatalf("PurgeBlocked(%s) = %v, want blocked %v by the hold", it.Typ, aerr, c.holds)
					}
				}
			})
		})
	}
}

// TestLegalHoldLifecycle: a policy takes a target once; its release, and
// the delete of an assignment, lift the hold after the release delay;
// a releasing policy takes no new assignment.
func TestLegalHoldLifecycle(t *testing.T) {
	const delay = 2 * time.Second // state's default LegalHoldReleaseDelay
	t.Run("release", func(t *testing.T) {
		w := newWorld(t)
		var hp *state.LegalHoldPolicy
		w.update(func(tx *state.Tx) {
			hp = w.holdPolicy(tx, "case")
			if _, aerr := w.hold(tx, hp, "file", w.file.ID); aerr != nil {
				t.Fatal(aerr)
			}
			if _, aerr := w.hold(tx, hp, "file", w.file.ID); code(aerr) != 409 {
				t.Fatalf("same target twice: %v, want 409", aerr)
			}
			if aerr := ReleaseLegalHold(tx, hp); aerr != nil {
				t.Fatal(aerr)
			}
			if st := tx.HoldStatus(hp); st != state.HoldReleasing {
				t.Fatalf("status %s after release, want releasing", st)
			}
			if aerr := tx.PurgeBlocked(w.file); aerr == nil {
				t.Fatal("a releasing hold let the file be purged")
			}
			if _, aerr := w.hold(tx, hp, "folder", w.folder.ID); code(aerr) != 400 {
				t.Fatalf("assigning a releasing policy: %v, want 400", aerr)
			}
		})
		w.now = w.now.Add(delay)
		w.update(func(tx *state.Tx) {
			if st := tx.HoldStatus(hp); st != state.HoldReleased {
				t.Fatalf("status %s after the delay, want released", st)
			}
			if aerr := tx.PurgeBlocked(w.file); aerr != nil {
				t.Fatalf("a released hold still blocks: %v", aerr)
			}
		})
	})
	t.Run("assignment deleted", func(t *testing.T) {
		w := newWorld(t)
		w.update(func(tx *state.Tx) {
			hp := w.holdPolicy(tx, "case")
			a, aerr := w.hold(tx, hp, "folder", w.folder.ID)
			if aerr != nil {
				t.Fatal(aerr)
			}
			if aerr := RemoveLegalHoldAssignment(tx, a); aerr != nil {
				t.Fatal(aerr)
			}
			if aerr := tx.PurgeBlocked(w.file); aerr == nil {
				t.Fatal("a deleted assignment stopped holding before the delay")
			}
		})
		w.now = w.now.Add(delay)
		w.update(func(tx *state.Tx) {
			if aerr := tx.PurgeBlocked(w.file); aerr != nil {
				t.Fatalf("a gone assignment still holds: %v", aerr)
			}
		})
	})
	t.Run("names", func(t *testing.T) {
		w := newWorld(t)
		w.update(func(tx *state.Tx) {
			w.holdPolicy(tx, "Case")
			if _, aerr := CreateLegalHoldPolicy(tx, &state.LegalHoldPolicy{Name: "Case", CreatedBy: tx.Admin}); code(aerr) != 409 {
				t.Fatalf("same name: %v, want 409", aerr)
			}
		})
	})
}

// TestDeleteRetentionAssignment: the assignment of a non-modifiable policy
// stays, with what it retains; another one goes, and so does the
// retention it alone gave.
func TestDeleteRetentionAssignment(t *testing.T) {
	for _, c := range []struct {
		retType string
		status  int
	}{
		{state.RetentionNonModifiable, 403},
		{state.RetentionModifiable, 0},
	} {
		t.Run(c.retType, func(t *testing.T) {
			w := newWorld(t)
			w.update(func(tx *state.Tx) {
				rp := w.policy(tx, "p", state.RetentionIndefinite, 0, c.retType)
				if aerr := w.assign(tx, rp, state.AssignFolder, w.folder.ID, ""); aerr != nil {
					t.Fatal(aerr)
				}
				a := tx.Retention.AssignOrder[len(tx.Retention.AssignOrder)-1]
				if aerr := DeleteRetentionAssignment(tx, a); code(aerr) != c.status {
					t.Fatalf("got %v, want status %d", aerr, c.status)
				}
				kept := tx.Retention.Assignments.Has(a.ID)
				retained := tx.PurgeBlocked(w.file) != nil
				if want := c.status != 0; kept != want || retained != want {
					t.Fatalf("assignment kept %v, file retained %v; want %v", kept, retained, want)
				}
			})
		})
	}
}
