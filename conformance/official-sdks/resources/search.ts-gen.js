'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// GET /search through search.searchForContent — words, a quoted phrase,
// AND NOT, the filters the SDK encodes (type, ancestors, extensions, size
// range, content types), a metadata filter on global.properties, offset
// paging with total_count, the shared-link result form, and a 404 for an
// ancestor folder the caller cannot see.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient } = require('../lib/common');

// RUN keeps words unique so the script can run again against one server.
const RUN = `r${process.pid}x${Date.now()}`;

async function status(promise) {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err && err.responseInfo && err.responseInfo.statusCode;
  }
}

async function main() {
  const client = genClient(env('TOKEN'));
  const admin = genClient(env('ADMIN_TOKEN'));
  console.log(`${genLabel()} (search)`);

  const folder = await client.folders.createFolder({ name: `search-gen-${RUN}`, parent: { id: '0' } });
  const files = [];
  for (let i = 0; i < 5; i++) {
    const body = `${RUN} ledger entry ${i}`;
    const up = await client.uploads.uploadFile({
      attributes: { name: `${RUN} ledger ${i}.txt`, parent: { id: folder.id } },
      file: Readable.from([Buffer.from(body)]),
    });
    files.push(up.entries[0]);
  }
  await client.uploads.uploadFile({
    attributes: { name: `${RUN} summary.md`, parent: { id: '0' } },
    file: Readable.from([Buffer.from(`the ${RUN} quarterly summary`)]),
  });
  const names = (res) => res.entries.map((e) => e.name).sort();

  await step('words, phrases and operators', async () => {
    const all = await client.search.searchForContent({ query: RUN, limit: 100 });
    check('a word finds names and text', all.totalCount === 7, JSON.stringify(names(all)));
    const phrase = await client.search.searchForContent({ query: `"${RUN} quarterly summary"` });
    check('a quoted phrase', phrase.totalCount === 1 && phrase.entries[0].name === `${RUN} summary.md`, JSON.stringify(names(phrase)));
    const not = await client.search.searchForContent({ query: `${RUN} AND NOT ledger` });
    check('AND NOT', not.entries.length === 2 && names(not).includes(`${RUN} summary.md`), JSON.stringify(names(not)));
  });

  await step('filters', async () => {
    const typed = await client.search.searchForContent({ query: RUN, type: 'folder' });
    check('type=folder', typed.totalCount === 1 && typed.entries[0].id === folder.id);
    const under = await client.search.searchForContent({ query: RUN, ancestorFolderIds: [folder.id], limit: 100 });
    check('ancestor_folder_ids', under.totalCount === 5, JSON.stringify(names(under)));
    const md = await client.search.searchForContent({ query: RUN, fileExtensions: ['md'] });
    check('file_extensions', md.totalCount === 1);
    const sized = await client.search.searchForContent({ query: RUN, type: 'file', sizeRange: [1, 1000] });
    check('size_range', sized.totalCount === 6, String(sized.totalCount));
    const byName = await client.search.searchForContent({ query: 'ledger', contentTypes: ['file_content'], ancestorFolderIds: [folder.id] });
    check('content_types', byName.totalCount === 5);
  });

  await step('offset pages', async () => {
    const seen = new Set();
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await client.search.searchForContent({ query: 'ledger', ancestorFolderIds: [folder.id], limit: 2, offset, sort: 'modified_at', direction: 'ASC' });
      check(`page at ${offset} has total_count 5`, page.totalCount === 5 && page.offset === offset && page.limit === 2);
      page.entries.forEach((e) => seen.add(e.id));
    }
    check('every result once over the pages', seen.size === 5);
  });

  await step('metadata filter', async () => {
    await client.fileMetadata.createFileMetadataById(files[2].id, 'global', 'properties', { run: RUN });
    const res = await client.search.searchForContent({
      mdfilters: [{ scope: 'global', templateKey: 'properties', filters: { run: RUN } }],
    });
    check('mdfilters finds the file', res.totalCount === 1 && res.entries[0].id === files[2].id, JSON.stringify(names(res)));
  });

  await step('shared-link form and errors', async () => {
    const res = await client.search.searchForContent({ query: `${RUN} summary`, includeRecentSharedLinks: true, fileExtensions: ['md'] });
    check('search_results_with_shared_links', res.type === 'search_results_with_shared_links' && res.entries[0].item.type === 'file', JSON.stringify(res.rawData).slice(0, 300));
    const hidden = await admin.folders.createFolder({ name: `search-admin-${RUN}`, parent: { id: '0' } });
    check('an unseen ancestor is 404', (await status(client.search.searchForContent({ query: RUN, ancestorFolderIds: [hidden.id] }))) === 404);
    const adminOnly = await client.search.searchForContent({ query: `search-admin-${RUN}` });
    check("another user's folder is not found", adminOnly.totalCount === 0);
  });

  finish(`${genLabel()} search`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
