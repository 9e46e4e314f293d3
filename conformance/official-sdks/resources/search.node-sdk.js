'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// client.search.query — words, a phrase, AND NOT, filters given as the
// SDK's options (passed through as query parameters), mdfilters (the SDK
// serialises the array), offset paging with total_count.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK } = require('../lib/common');

const RUN = `r${process.pid}x${Date.now()}`;

async function status(promise) {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err && (err.statusCode || (err.response && err.response.statusCode));
  }
}

async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('TOKEN'));
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (search)`);

  const folder = await client.folders.create('0', `search-node-${RUN}`);
  const files = [];
  for (let i = 0; i < 5; i++) {
    const up = await client.files.uploadFile(folder.id, `${RUN} invoice ${i}.txt`, Buffer.from(`${RUN} invoice line ${i}`));
    files.push(up.entries[0]);
  }
  await client.files.uploadFile('0', `${RUN} memo.md`, Buffer.from(`the ${RUN} annual memo`));
  const names = (res) => res.entries.map((e) => e.name).sort();

  await step('words, phrases and operators', async () => {
    const all = await client.search.query(RUN, { limit: 100 });
    check('a word finds names and text', all.total_count === 7, JSON.stringify(names(all)));
    const phrase = await client.search.query(`"${RUN} annual memo"`);
    check('a quoted phrase', phrase.total_count === 1 && phrase.entries[0].name === `${RUN} memo.md`);
    const not = await client.search.query(`${RUN} AND NOT invoice`);
    check('AND NOT', not.entries.length === 2, JSON.stringify(names(not)));
  });

  await step('filters and pages', async () => {
    const typed = await client.search.query(RUN, { type: 'folder' });
    check('type=folder', typed.total_count === 1 && typed.entries[0].id === folder.id);
    const under = await client.search.query(RUN, { ancestor_folder_ids: folder.id, file_extensions: 'txt' });
    check('ancestor_folder_ids and file_extensions', under.total_count === 5);
    const seen = new Set();
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await client.search.query('invoice', { ancestor_folder_ids: folder.id, limit: 2, offset });
      check(`page at ${offset}`, page.total_count === 5 && page.entries.length === Math.min(2, 5 - offset));
      page.entries.forEach((e) => seen.add(e.id));
    }
    check('every result once over the pages', seen.size === 5);
  });

  await step('metadata filter and errors', async () => {
    await client.files.addMetadata(files[1].id, 'global', 'properties', { run: RUN });
    const res = await client.search.query('', { mdfilters: [{ scope: 'global', templateKey: 'properties', filters: { run: RUN } }] });
    check('mdfilters finds the file', res.total_count === 1 && res.entries[0].id === files[1].id, JSON.stringify(names(res)));
    const hidden = await admin.folders.create('0', `search-admin-node-${RUN}`);
    check('an unseen ancestor is 404', (await status(client.search.query(RUN, { ancestor_folder_ids: hidden.id }))) === 404);
    check('a search without query or mdfilters is 400', (await status(client.search.query(''))) === 400);
  });

  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} search`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
