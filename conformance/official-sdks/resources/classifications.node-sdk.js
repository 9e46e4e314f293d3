'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// the classification template and a file's classification through the
// SDK's metadata calls (the classic SDK has no classification manager).
// Env: BASE_URL, UPLOAD_URL, TOKEN, ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;
const KEY = 'securityClassification-6VMVochwUWo';
const FIELD = 'Box__Security__Classification__Key';

async function main() {
  const sdk = classicSDK(BoxSDK);
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  const user = sdk.getBasicClient(env('TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (classifications)`);
  await step('template and a label', async () => {
    const missing = await failure(admin.metadata.getTemplateSchema('enterprise', KEY));
    if (missing.status === 404) {
      await admin.metadata.createTemplate('Classification', [{ type: 'enum', key: FIELD, displayName: 'Classification', options: [] }], { templateKey: KEY });
    }
    const t = await admin.metadata.updateTemplate('enterprise', KEY, [{
      op: 'addEnumOption', fieldKey: FIELD,
      data: { key: `Internal${RUN}`, staticConfig: { classification: { classificationDefinition: 'Staff', colorID: 1 } } },
    }]);
    const opt = t.fields[0].options.find((o) => o.key === `Internal${RUN}`);
    check('label added', !!opt && opt.staticConfig.classification.classificationDefinition === 'Staff', JSON.stringify(t.fields[0]));
  });
  await step('file classification', async () => {
    const f = (await user.files.uploadFile('0', `classified-${RUN}.txt`, Buffer.from('x'))).entries[0];
    const md = await user.files.addMetadata(f.id, 'enterprise', KEY, { [FIELD]: `Internal${RUN}` });
    check('classified', md[FIELD] === `Internal${RUN}`, JSON.stringify(md));
    const bad = await failure(user.files.updateMetadata(f.id, 'enterprise', KEY, [{ op: 'replace', path: `/${FIELD}`, value: 'NoSuchLabel' }]));
    check('unknown label: 400', bad.status === 400, JSON.stringify(bad));
    await user.files.deleteMetadata(f.id, 'enterprise', KEY);
    const gone = await failure(user.files.getMetadata(f.id, 'enterprise', KEY));
    check('removed: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} classifications`);
}

main().catch((err) => { console.error(err); process.exit(1); });
