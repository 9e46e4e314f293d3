package persist

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contentapi/cms/refserver/internal/state"
)

// TestLoadedFile: the file of a version record is found among the items
// read, in key order, from near the last one found, past folders and web
// links, a file's versions one after the other; an id out of that order,
// or of no file, is left to the caller's lookup in the items table (nil).
func TestLoadedFile(t *testing.T) {
	var items []*state.Item
	add := func(typ, id string) *state.Item {
		it := &state.Item{Typ: typ, ID: id}
		items = append(items, it)
		return it
	}
	for i := range 40 {
		add("folder", fmt.Sprintf("0%02d", i))
	}
	f1 := add("file", "1")
	add("folder", "10")
	add("web_link", "11")
	f12 := add("file", "12")
	f3 := add("file", "3")
	add("folder", "4")
	ld := &state.LoadScratch{Items: items}

	assert.Same(t, f1, loadedFile(ld, "1"), "past 40 folders")
	assert.Same(t, f1, loadedFile(ld, "1"), "a file's second version")
	assert.Same(t, f12, loadedFile(ld, "12"), "past a folder and a web link")
	assert.Nil(t, loadedFile(ld, "1"), "behind: the caller looks it up")
	assert.Same(t, f12, loadedFile(ld, "12"), "a miss behind leaves the place as it was")
	assert.Nil(t, loadedFile(ld, "2"), "no such item")
	assert.Same(t, f3, loadedFile(ld, "3"), "after a miss ahead")
	assert.Nil(t, loadedFile(ld, "4"), "a folder is no file")
	assert.Nil(t, loadedFile(ld, "5"), "past the end")
	assert.Nil(t, loadedFile(&state.LoadScratch{}, "1"), "no items read")
}
