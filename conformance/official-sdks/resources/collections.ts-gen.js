'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// collections as the SDK's own test reads them (getCollections' first entry
// is the favorites collection), getCollectionById, a file and a folder
// added with the collections member of their update and listed by
// getCollectionItems, then removed; and recent items (getRecentItems)
// filled by an upload, a download and a rename, newest first, paged by
// marker.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user).
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, readAll } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const user = genClient(env('TOKEN'));
  console.log(`${genLabel()} (collections, recent items)`);
  const dir = await user.folders.createFolder({ name: `collections-gen-${RUN}`, parent: { id: '0' } });
  const up = async (name) => (await user.uploads.uploadFile({ attributes: { name, parent: { id: dir.id } }, file: Readable.from([Buffer.from(name)]) })).entries[0];
  const file = await up('fav.txt');

  await step('collections', async () => {
    const collections = await user.collections.getCollections();
    const fav = collections.entries[0];
    check('the favorites collection', fav.name === 'Favorites' && fav.collectionType === 'favorites', JSON.stringify(collections.rawData));
    const got = await user.collections.getCollectionById(fav.id);
    check('getCollectionById', got.id === fav.id);
    const updated = await user.files.updateFileById(file.id, { requestBody: { collections: [{ id: fav.id }] }, queryParams: { fields: ['collections'] } });
    // (FileFull models no collections member: it is read from the raw answer)
    const shown = updated.rawData.collections;
    check('the file shows its collection', Array.isArray(shown) && shown.some((c) => c.id === fav.id), JSON.stringify(updated.rawData));
    await user.folders.updateFolderById(dir.id, { requestBody: { collections: [{ id: fav.id }] } });
    const items = await user.collections.getCollectionItems(fav.id, { queryParams: { fields: ['name'] } });
    const ids = items.entries.map((e) => e.id);
    check('getCollectionItems lists both', ids.includes(file.id) && ids.includes(dir.id), JSON.stringify(items.rawData).slice(0, 300));
    await user.files.updateFileById(file.id, { requestBody: { collections: [] } });
    const after = await user.collections.getCollectionItems(fav.id);
    check('removed with an empty list', !after.entries.some((e) => e.id === file.id) && after.entries.some((e) => e.id === dir.id));
    await user.folders.updateFolderById(dir.id, { requestBody: { collections: [] } });
  });

  await step('recent items', async () => {
    const other = await up('other.txt');
    await readAll(await user.downloads.downloadFile(file.id));
    await user.files.updateFileById(other.id, { requestBody: { name: 'renamed.txt' } });
    const recent = await user.recentItems.getRecentItems({ limit: 2 });
    const first = recent.entries[0];
    check('newest first: the rename', first.type === 'recent_item' && first.item.id === other.id && first.interactionType === 'item_modify' &&
      !!first.interactedAt, JSON.stringify(recent.rawData).slice(0, 400));
    check('then the download', recent.entries[1].item.id === file.id && recent.entries[1].interactionType === 'item_open');
    check('a next page', !!recent.nextMarker);
    const next = await user.recentItems.getRecentItems({ limit: 2, marker: recent.nextMarker });
    check('the next page goes on', next.entries.length > 0 && !next.entries.some((e) => e.item.id === other.id || e.item.id === file.id));
  });

  await user.folders.deleteFolderById(dir.id, { queryParams: { recursive: true } });
  finish(`${genLabel()} collections`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
