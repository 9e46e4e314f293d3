package state

import (
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// memWorld is a state made by NewMemory, whose clock the test moves, and
// the principals of the managed user and the admin.
type memWorld struct {
	st          *State
	now         time.Time
	user, admin *Principal
}

func newMemWorld(t testing.TB) *memWorld {
	t.Helper()
	w := &memWorld{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	st, err := NewMemory(&Env{Now: func() time.Time { return w.now }})
	if err != nil {
		t.Fatal(err)
	}
	w.st = st
	st.View(func(tx *ReadTx) {
		w.user, w.admin = tx.Principals[tx.Cfg.UserToken], tx.Principals[tx.Cfg.AdminToken]
	})
	return w
}

// item adds an item of the managed user's.
func (w *memWorld) item(tx *Tx, typ, name, parent string) *Item {
	u := tx.User
	it := &Item{Typ: typ, ID: tx.NewID(), Name: name, ParentID: parent, Owner: u, CreatedBy: u, ModBy: u, CreatedAt: w.now, ModifiedAt: w.now}
	if typ == "file" {
		it.Versions = []*Version{NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + it.ID, Size: 1}), w.now, u)}
	}
	tx.AddItem(it)
	return it
}

func status(aerr *wire.Error) (int, string) {
	if aerr == nil {
		return 0, ""
	}
	return aerr.Status, aerr.Code
}

// TestNewMemory: the state NewMemory makes has its principals, an empty
// root and the resources' state, and takes a first item.
func TestNewMemory(t *testing.T) {
	w := newMemWorld(t)
	if w.user == nil || w.admin == nil || w.user.User == w.admin.User {
		t.Fatalf("principals: user %v, admin %v", w.user, w.admin)
	}
	w.st.Update(func(tx *Tx) {
		f := w.item(tx, "file", "a.txt", RootID)
		if got, aerr := tx.Lookup(w.user, "file", f.ID); aerr != nil || got != f {
			t.Fatalf("Lookup = %v, %v", got, aerr)
		}
		if tx.Metadata.Templates == nil {
			t.Fatal("the resources' state is not initialised")
		}
	})
}

// TestLockRefuses: a lock someone else holds refuses upload, edit and
// delete, and download only when downloads are prevented; the locker is
// never refused, and an expired lock refuses nothing.
func TestLockRefuses(t *testing.T) {
	for _, c := range []struct {
		name       string
		byUser     bool // the managed user locked it (else the admin)
		prevent    bool
		expiresIn  time.Duration // 0: no expiry
		act        Action
		wantLocked bool
	}{
		{"other's lock refuses upload", false, false, 0, ActUpload, true},
		{"other's lock refuses edit", false, false, 0, ActEdit, true},
		{"other's lock refuses delete", false, false, 0, ActDelete, true},
		{"other's lock allows download", false, false, 0, ActDownload, false},
		{"other's lock prevents download", false, true, 0, ActDownload, true},
		{"other's lock allows preview", false, true, 0, ActPreview, false},
		{"own lock refuses nothing", true, true, 0, ActEdit, false},
		{"lock still running", false, false, time.Hour, ActEdit, true},
		{"expired lock", false, false, -time.Second, ActEdit, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newMemWorld(t)
			w.st.Update(func(tx *Tx) {
				f := w.item(tx, "file", "a.txt", RootID)
				by := tx.Admin
				if c.byUser {
					by = tx.User
				}
				f.SetLock(&FileLock{ID: tx.NewID(), By: by, CreatedAt: w.now, DownloadPrevented: c.prevent})
				if c.expiresIn != 0 {
					f.Lock().ExpiresAt = w.now.Add(c.expiresIn)
				}
				st, code := status(tx.LockRefuses(w.user, f, c.act))
				if locked := st == 403 && code == CodeItemLocked; locked != c.wantLocked || !locked && st != 0 {
					t.Fatalf("LockRefuses = %d %s, want locked %v", st, code, c.wantLocked)
				}
			})
		})
	}
	t.Run("folders take no lock", func(t *testing.T) {
		w := newMemWorld(t)
		w.st.Update(func(tx *Tx) {
			d := w.item(tx, "folder", "d", RootID)
			d.SetLock(&FileLock{By: tx.Admin})
			if aerr := tx.LockRefuses(w.user, d, ActDelete); aerr != nil {
				t.Fatal(aerr)
			}
		})
	})
}

// TestTrashRules: a folder goes to the trash with its content; only what
// is in the trash itself is found there; a restore needs its parent (or
// a new one) and a free name; a purge takes the tree, but not what is in
// the trash on its own.
func TestTrashRules(t *testing.T) {
	w := newMemWorld(t)
	var dir, inner, loose *Item
	w.st.Update(func(tx *Tx) {
		dir = w.item(tx, "folder", "dir", RootID)
		inner = w.item(tx, "file", "inner.txt", dir.ID)
		loose = w.item(tx, "file", "loose.txt", dir.ID)
		tx.TrashItem(loose, tx.User) // in the trash on its own first
		tx.TrashItem(dir, tx.User)
		if inner.TrashedWith() != dir.ID || loose.TrashedWith() != "" {
			t.Fatalf("trashed with: inner %q, loose %q", inner.TrashedWith(), loose.TrashedWith())
		}
		for _, c := range []struct {
			name string
			p    *Principal
			typ  string
			id   string
			want int
		}{
			{"folder in the trash itself", w.user, "folder", dir.ID, 0},
			{"file trashed on its own", w.user, "file", loose.ID, 0},
			{"file trashed with its folder", w.user, "file", inner.ID, 404},
			{"wrong type", w.user, "file", dir.ID, 404},
			{"the admin sees every trash", w.admin, "folder", dir.ID, 0},
		} {
			_, aerr := tx.LookupTrashed(c.p, c.typ, c.id)
			if st, _ := status(aerr); st != c.want {
				t.Errorf("%s: LookupTrashed = %v, want %d", c.name, aerr, c.want)
			}
		}
		if tx.Live(w.user, inner) {
			t.Error("content of a trashed folder is live")
		}
		// The loose file's folder is in the trash: 409 without a parent.
		_, aerr := tx.RestoreItem(w.user, "file", loose.ID, RestoreBody{}, nil)
		if st, code := status(aerr); st != 409 || code != codeParentUnavailable {
			t.Fatalf("restore without its parent = %v, want 409 %s", aerr, codeParentUnavailable)
		}
		// A live item takes the folder's name in the root: the restore is 409.
		clash := w.item(tx, "folder", "dir", RootID)
		_, aerr = tx.RestoreItem(w.user, "folder", dir.ID, RestoreBody{}, nil)
		if st, code := status(aerr); st != 409 || code != wire.CodeItemNameInUse {
			t.Fatalf("restore onto a taken name = %v, want 409 %s", aerr, wire.CodeItemNameInUse)
		}
		name := "dir (restored)"
		if _, aerr := tx.RestoreItem(w.user, "folder", dir.ID, RestoreBody{Name: &name}, nil); aerr != nil {
			t.Fatal(aerr)
		}
		if dir.Trashed() || inner.Trashed() || !loose.Trashed() {
			t.Fatalf("after the restore: dir %v, inner %v, loose %v (trashed on its own, it stays)", dir.Trashed(), inner.Trashed(), loose.Trashed())
		}
		_ = clash
	})
	w.st.Update(func(tx *Tx) {
		tx.TrashItem(dir, tx.User)
		if aerr := tx.PurgeTrashed(w.user, "folder", dir.ID); aerr != nil {
			t.Fatal(aerr)
		}
		for _, it := range []*Item{dir, inner} {
			if tx.Items.Has(it.Typ, it.ID) {
				t.Errorf("%s is still on the server after its folder's purge", it.Name)
			}
		}
		// What was in the trash on its own stays there (as removeTree).
		if _, aerr := tx.LookupTrashed(w.user, "file", loose.ID); aerr != nil {
			t.Errorf("the file trashed on its own went with its folder's purge: %v", aerr)
		}
	})
}
