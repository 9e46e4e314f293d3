'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// metadata templates (admin), instances on a file and a folder (managed
// user) and a paged, sorted metadata query.
// Env: BASE_URL, UPLOAD_URL, TOKEN, ADMIN_TOKEN, ENTERPRISE_ID.
const { Readable } = require('stream');
const { genSDK, genLabel, env, check, step, finish, customBaseUrls } = require('../lib/common');
const { BoxClient, BoxDeveloperTokenAuth } = genSDK();

const RUN = `${process.pid}${Date.now()}`;

function client(token) {
  return new BoxClient({ auth: new BoxDeveloperTokenAuth({ token }) }).withCustomBaseUrls(customBaseUrls());
}

async function main() {
  const admin = client(env('ADMIN_TOKEN'));
  const user = client(env('TOKEN'));
  const scope = `enterprise_${env('ENTERPRISE_ID')}`;
  const key = `contract${RUN}`;
  console.log(`${genLabel()} (metadata)`);

  const tmpl = await step('create template', async () => {
    const t = await admin.metadataTemplates.createMetadataTemplate({
      scope: 'enterprise',
      templateKey: key,
      displayName: `Contract ${RUN}`,
      fields: [
        { type: 'string', key: 'customer', displayName: 'Customer' },
        { type: 'float', key: 'amount', displayName: 'Amount' },
        { type: 'enum', key: 'status', displayName: 'Status', options: [{ key: 'draft' }, { key: 'active' }] },
      ],
    });
    check('template scope', t.scope === scope, t.scope);
    check('template key', t.templateKey === key, t.templateKey);
    check('template fields', t.fields.length === 3, JSON.stringify(t.fields));
    return t;
  });
  if (!tmpl) return;

  await step('update template schema', async () => {
    const t = await admin.metadataTemplates.updateMetadataTemplate('enterprise', key, [
      { op: 'addField', data: { type: 'multiSelect', key: 'regions', displayName: 'Regions', options: [{ key: 'emea' }, { key: 'apac' }] } },
      { op: 'addEnumOption', fieldKey: 'status', data: { key: 'closed' } },
      { op: 'editTemplate', data: { displayName: `Contracts ${RUN}` } },
    ]);
    check('field added', t.fields.some((f) => f.key === 'regions'));
    check('option added', t.fields.find((f) => f.key === 'status').options.map((o) => o.key).join() === 'draft,active,closed');
    check('template renamed', t.displayName === `Contracts ${RUN}`, t.displayName);
    const byId = await user.metadataTemplates.getMetadataTemplateById(t.id);
    check('get by id', byId.templateKey === key);
    const got = await user.metadataTemplates.getMetadataTemplate('enterprise', key);
    check('get by scope and key', got.id === t.id);
  });

  const folder = await step('create folder', () => user.folders.createFolder({ name: `meta-${RUN}`, parent: { id: '0' } }));
  if (!folder) return finish(`${genLabel()} metadata`);
  const files = [];
  await step('upload files', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await user.uploads.uploadFile({
        attributes: { name: `deal-${i}.txt`, parent: { id: folder.id } },
        file: Readable.from([Buffer.from(`deal ${i}`)]),
      });
      files.push(res.entries[0]);
    }
    check('five files', files.length === 5);
  });

  await step('file instance: create, read, update, delete', async () => {
    const f = files[0];
    const created = await user.fileMetadata.createFileMetadataById(f.id, 'enterprise', key, {
      customer: 'Acme', amount: 1234.5, status: 'active', regions: ['emea'],
    });
    check('created $parent', created.parent === `file_${f.id}`, created.parent);
    check('created $version 0', created.version === 0, created.version);
    check('custom values kept', created.extraData && created.extraData.amount === 1234.5, JSON.stringify(created.extraData));
    const updated = await user.fileMetadata.updateFileMetadataById(f.id, 'enterprise', key, [
      { op: 'test', path: '/customer', value: 'Acme' },
      { op: 'replace', path: '/amount', value: 99 },
      { op: 'add', path: '/regions/-', value: 'apac' },
    ]);
    check('updated value', updated.extraData.amount === 99, JSON.stringify(updated.extraData));
    check('updated list', JSON.stringify(updated.extraData.regions) === '["emea","apac"]');
    check('$version grew', updated.version === 1, updated.version);
    const got = await user.fileMetadata.getFileMetadataById(f.id, scope, key);
    check('read back', got.extraData.amount === 99 && got.id === created.id);
    const all = await user.fileMetadata.getFileMetadata(f.id);
    check('list on file', all.entries.length === 1, JSON.stringify(all));
    let conflict;
    try {
      await user.fileMetadata.updateFileMetadataById(f.id, 'enterprise', key, [{ op: 'test', path: '/customer', value: 'Other' }]);
    } catch (err) {
      conflict = err;
    }
    check('failed test is 409', conflict && conflict.responseInfo && conflict.responseInfo.statusCode === 409);
    check('failed test code', conflict && conflict.responseInfo && conflict.responseInfo.body.code === 'failed_json_patch_application',
      conflict && JSON.stringify(conflict.responseInfo && conflict.responseInfo.body));
    await user.fileMetadata.deleteFileMetadataById(f.id, 'enterprise', key);
    let missing;
    try {
      await user.fileMetadata.getFileMetadataById(f.id, 'enterprise', key);
    } catch (err) {
      missing = err;
    }
    check('deleted instance is 404', missing && missing.responseInfo && missing.responseInfo.statusCode === 404);
  });

  await step('folder instance: create, read, update, delete', async () => {
    const created = await user.folderMetadata.createFolderMetadataById(folder.id, 'enterprise', key, { customer: 'Folder Co' });
    check('created on folder', created.parent === `folder_${folder.id}`, created.parent);
    const updated = await user.folderMetadata.updateFolderMetadataById(folder.id, 'enterprise', key, [
      { op: 'add', path: '/status', value: 'draft' },
    ]);
    check('folder updated', updated.extraData.status === 'draft');
    const got = await user.folderMetadata.getFolderMetadataById(folder.id, 'enterprise', key);
    check('folder read back', got.extraData.customer === 'Folder Co');
    await user.folderMetadata.deleteFolderMetadataById(folder.id, 'enterprise', key);
    const all = await user.folderMetadata.getFolderMetadata(folder.id);
    check('folder has no instances left', all.entries.length === 0);
  });

  await step('paged, sorted metadata query', async () => {
    const amounts = [50, 10, 40, 30, 20];
    for (let i = 0; i < files.length; i++) {
      await user.fileMetadata.createFileMetadataById(files[i].id, 'enterprise', key, { customer: `C${i}`, amount: amounts[i] });
    }
    const body = {
      from: `${scope}.${key}`,
      ancestorFolderId: folder.id,
      query: 'amount >= :min AND customer LIKE :prefix',
      queryParams: { min: 15, prefix: 'C%' },
      orderBy: [{ fieldKey: 'amount', direction: 'desc' }],
      limit: 2,
      fields: ['name', `metadata.${scope}.${key}.amount`],
    };
    const seen = [];
    let marker;
    let pages = 0;
    do {
      const res = await user.search.searchByMetadataQuery(marker ? { ...body, marker } : body);
      pages++;
      for (const e of res.entries) {
        // FileFull.metadata.extraData[scope][key] is a MetadataFull whose
        // custom values are in its own extraData.
        const byScope = e.metadata && e.metadata.extraData && e.metadata.extraData[scope];
        const inst = byScope && byScope[key];
        seen.push(inst && (inst.extraData ? inst.extraData.amount : inst.amount));
      }
      marker = res.nextMarker;
    } while (marker && pages < 10);
    check('query pages', pages === 2, pages);
    check('query order and filter', JSON.stringify(seen) === '[50,40,30,20]', JSON.stringify(seen));
  });

  await step('delete template', async () => {
    await admin.metadataTemplates.deleteMetadataTemplate('enterprise', key);
    const list = await admin.metadataTemplates.getEnterpriseMetadataTemplates();
    check('template gone', !list.entries.some((t) => t.templateKey === key));
    const left = await user.fileMetadata.getFileMetadata(files[0].id);
    check('its instances gone', left.entries.length === 0, JSON.stringify(left.entries));
  });

  await step('cleanup', () => user.folders.deleteFolderById(folder.id, { queryParams: { recursive: true } }));
}

main()
  .catch((err) => {
    console.log(`  FAIL unexpected: ${err && err.stack}`);
    process.exitCode = 1;
  })
  .finally(() => finish(`${genLabel()} metadata`));
