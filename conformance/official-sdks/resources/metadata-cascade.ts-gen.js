'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// a metadata cascade policy made before the folder's instance (as the
// SDK's own tests do), apply failing until the instance exists, then
// cascading to a file already in the folder and to one uploaded later.
// Env: BASE_URL, UPLOAD_URL, TOKEN, ADMIN_TOKEN, ENTERPRISE_ID.
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const admin = genClient(env('ADMIN_TOKEN'));
  const user = genClient(env('TOKEN'));
  const key = `cascade${RUN}`;
  console.log(`${genLabel()} (metadata cascade policies)`);
  const upload = async (name, parent) => (await user.uploads.uploadFile({
    attributes: { name, parent: { id: parent } }, file: Readable.from([Buffer.from(name)]),
  })).entries[0];

  const folder = await step('template, folder, file', async () => {
    await admin.metadataTemplates.createMetadataTemplate({ scope: 'enterprise', templateKey: key, displayName: `Cascade ${RUN}`,
      fields: [{ type: 'string', key: 'status', displayName: 'Status' }] });
    const f = await user.folders.createFolder({ name: `cascade-${RUN}`, parent: { id: '0' } });
    f.before = await upload('before.txt', f.id);
    return f;
  });
  if (!folder) return finish(`${genLabel()} metadata cascade policies`);
  const policy = await step('create policy', async () => {
    const p = await user.metadataCascadePolicies.createMetadataCascadePolicy({ folderId: folder.id, scope: 'enterprise', templateKey: key });
    check('parent', p.parent.id === folder.id);
    check('scope', p.scope === `enterprise_${env('ENTERPRISE_ID')}`, p.scope);
    check('owner enterprise', p.ownerEnterprise.id === env('ENTERPRISE_ID'));
    const dup = await failure(user.metadataCascadePolicies.createMetadataCascadePolicy({ folderId: folder.id, scope: 'enterprise', templateKey: key }));
    check('duplicate: 409', dup.status === 409 && dup.code === 'tuple_already_exists', JSON.stringify(dup));
    return p;
  });
  if (!policy) return finish(`${genLabel()} metadata cascade policies`);
  await step('apply', async () => {
    const early = await failure(user.metadataCascadePolicies.applyMetadataCascadePolicy(policy.id, { conflictResolution: 'none' }));
    check('no folder instance: fails', early.status === 404, JSON.stringify(early));
    await user.folderMetadata.createFolderMetadataById(folder.id, 'enterprise', key, { status: 'draft' });
    await user.metadataCascadePolicies.applyMetadataCascadePolicy(policy.id, { conflictResolution: 'overwrite' });
    const md = await user.fileMetadata.getFileMetadataById(folder.before.id, 'enterprise', key);
    check('file already there', md.extraData && md.extraData.status === 'draft', JSON.stringify(md));
    const after = await upload('after.txt', folder.id);
    const md2 = await user.fileMetadata.getFileMetadataById(after.id, 'enterprise', key);
    check('file uploaded later', md2.extraData && md2.extraData.status === 'draft', JSON.stringify(md2));
  });
  await step('read, list, delete', async () => {
    const got = await user.metadataCascadePolicies.getMetadataCascadePolicyById(policy.id);
    check('get', got.id === policy.id);
    const list = await user.metadataCascadePolicies.getMetadataCascadePolicies({ folderId: folder.id });
    check('list', list.entries.length === 1 && list.entries[0].id === policy.id, JSON.stringify(list));
    await user.metadataCascadePolicies.deleteMetadataCascadePolicyById(policy.id);
    const gone = await failure(user.metadataCascadePolicies.getMetadataCascadePolicyById(policy.id));
    check('deleted: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`${genLabel()} metadata cascade policies`);
}

main().catch((err) => { console.error(err); process.exit(1); });
