'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// metadata templates (admin), instances on a file and a folder (managed
// user), setMetadata (create, then patch on 409) and a paged, sorted
// metadata query.
// Env: BASE_URL, UPLOAD_URL, TOKEN, ADMIN_TOKEN, ENTERPRISE_ID.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  const user = sdk.getBasicClient(env('TOKEN'));
  const scope = `enterprise_${env('ENTERPRISE_ID')}`;
  const key = `classic${RUN}`;
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (metadata)`);

  const tmpl = await step('create template', async () => {
    const t = await admin.metadata.createTemplate(`Classic ${RUN}`, [
      { type: 'string', key: 'customer', displayName: 'Customer' },
      { type: 'float', key: 'amount', displayName: 'Amount' },
      { type: 'date', key: 'signed', displayName: 'Signed' },
    ], { templateKey: key, hidden: false });
    check('template created', t.templateKey === key && t.scope === scope, JSON.stringify(t));
    return t;
  });
  if (!tmpl) return;

  await step('update template schema (sent as application/json)', async () => {
    const t = await admin.metadata.updateTemplate('enterprise', key, [
      { op: 'addField', data: { type: 'enum', key: 'status', displayName: 'Status', options: [{ key: 'open' }, { key: 'won' }] } },
      { op: 'editField', fieldKey: 'customer', data: { displayName: 'Client' } },
    ]);
    check('field added', t.fields.map((f) => f.key).join() === 'customer,amount,signed,status', JSON.stringify(t.fields));
    const got = await user.metadata.getTemplateSchema('enterprise', key);
    check('schema read back', got.fields[0].displayName === 'Client');
    const list = await user.metadata.getTemplates('enterprise');
    check('listed', list.entries.some((e) => e.templateKey === key));
  });

  const folder = await step('create folder', () => user.folders.create('0', `classic-meta-${RUN}`));
  if (!folder) return;
  const files = [];
  await step('upload files', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await user.files.uploadFile(folder.id, `deal-${i}.txt`, Buffer.from(`deal ${i}`));
      files.push(res.entries[0]);
    }
    check('five files', files.length === 5);
  });

  await step('file instance: add, get, update, setMetadata, delete', async () => {
    const f = files[0];
    const created = await user.files.addMetadata(f.id, 'enterprise', key, { customer: 'Acme', amount: 10, signed: '2025-05-06T00:00:00Z' });
    check('created', created.$parent === `file_${f.id}` && created.amount === 10, JSON.stringify(created));
    const updated = await user.files.updateMetadata(f.id, 'enterprise', key, [
      { op: 'test', path: '/amount', value: 10 },
      { op: 'replace', path: '/amount', value: 11.25 },
    ]);
    check('updated', updated.amount === 11.25 && updated.$version === 1, JSON.stringify(updated));
    // setMetadata creates, and on 409 falls back to "add" operations.
    const set = await user.files.setMetadata(f.id, 'enterprise', key, { customer: 'Acme 2', status: 'won' });
    check('setMetadata patched the existing instance', set.customer === 'Acme 2' && set.status === 'won' && set.amount === 11.25, JSON.stringify(set));
    const got = await user.files.getMetadata(f.id, scope, key);
    check('read back', got.$version === 2, JSON.stringify(got));
    const all = await user.files.getAllMetadata(f.id);
    check('list on file', all.entries.length === 1);
    let err;
    try {
      await user.files.addMetadata(f.id, 'enterprise', key, {});
    } catch (e) {
      err = e;
    }
    check('second add is 409', err && err.statusCode === 409, err && err.message);
    await user.files.deleteMetadata(f.id, 'enterprise', key);
    const none = await user.files.getAllMetadata(f.id);
    check('deleted', none.entries.length === 0);
  });

  await step('folder instance: add, get, update, delete', async () => {
    const created = await user.folders.addMetadata(folder.id, 'enterprise', key, { customer: 'Folder Co' });
    check('created on folder', created.$parent === `folder_${folder.id}`);
    const updated = await user.folders.updateMetadata(folder.id, 'enterprise', key, [{ op: 'add', path: '/amount', value: 3 }]);
    check('folder updated', updated.amount === 3);
    const got = await user.folders.getMetadata(folder.id, 'enterprise', key);
    check('folder read back', got.customer === 'Folder Co' && got.amount === 3);
    await user.folders.deleteMetadata(folder.id, 'enterprise', key);
    const all = await user.folders.getAllMetadata(folder.id);
    check('folder has no instances left', all.entries.length === 0);
  });

  await step('paged, sorted metadata query', async () => {
    const amounts = [5, 1, 4, 3, 2];
    for (let i = 0; i < files.length; i++) {
      await user.files.addMetadata(files[i].id, 'enterprise', key, { customer: `C${i}`, amount: amounts[i] });
    }
    const opts = {
      query: 'amount > :min',
      query_params: { min: 1 },
      order_by: [{ field_key: 'amount', direction: 'asc' }],
      limit: 3,
      fields: ['name', `metadata.${scope}.${key}.amount`],
    };
    const seen = [];
    let pages = 0;
    let marker;
    do {
      const res = await user.metadata.query(`${scope}.${key}`, folder.id, marker ? { ...opts, marker } : opts);
      pages++;
      for (const e of res.entries) seen.push(e.metadata[scope][key].amount);
      marker = res.next_marker;
    } while (marker && pages < 10);
    check('query pages', pages === 2, pages);
    check('query order and filter', JSON.stringify(seen) === '[2,3,4,5]', JSON.stringify(seen));
  });

  await step('delete template', async () => {
    await admin.metadata.deleteTemplate('enterprise', key);
    let err;
    try {
      await user.metadata.getTemplateSchema('enterprise', key);
    } catch (e) {
      err = e;
    }
    check('template gone', err && err.statusCode === 404, err && err.message);
  });

  await step('cleanup', () => user.folders.delete(folder.id, { recursive: true }));
}

main()
  .catch((err) => {
    console.log(`  FAIL unexpected: ${err && err.stack}`);
    process.exitCode = 1;
  })
  .finally(() => finish(`box-node-sdk ${pkgVersion('box-node-sdk')} metadata`));
