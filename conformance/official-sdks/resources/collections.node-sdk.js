'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// collections.getAll (the favorites collection), files.addToCollection and
// folders.addToCollection (which read ?fields=collections and update the
// item), collections.getItems, files.removeFromCollection, and
// recentItems.get filled by an upload and a download.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user).
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, readAll } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const user = sdk.getBasicClient(env('TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (collections, recent items)`);
  const dir = await user.folders.create('0', `collections-node-${RUN}`);
  const file = (await user.files.uploadFile(dir.id, 'fav.txt', Buffer.from('fav'))).entries[0];

  await step('collections', async () => {
    const all = await user.collections.getAll();
    const fav = all.entries.find((c) => c.collection_type === 'favorites');
    check('collections.getAll', !!fav && fav.name === 'Favorites', JSON.stringify(all));
    await user.files.addToCollection(file.id, fav.id);
    await user.folders.addToCollection(dir.id, fav.id);
    const items = await user.collections.getItems(fav.id, { fields: 'name' });
    const ids = items.entries.map((e) => e.id);
    check('collections.getItems', ids.includes(file.id) && ids.includes(dir.id), JSON.stringify(items).slice(0, 300));
    await user.files.removeFromCollection(file.id, fav.id);
    await user.folders.removeFromCollection(dir.id, fav.id);
    const after = await user.collections.getItems(fav.id);
    check('removeFromCollection', !after.entries.some((e) => e.id === file.id || e.id === dir.id));
  });

  await step('recent items', async () => {
    await readAll(await user.files.getReadStream(file.id));
    const recent = await user.recentItems.get({ limit: 5 });
    const first = recent.entries[0];
    check('recentItems.get: the download first', first && first.item.id === file.id && first.interaction_type === 'item_open', JSON.stringify(recent).slice(0, 400));
  });

  await user.folders.delete(dir.id, { recursive: true });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} collections`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
