'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// the enterprise's classification template (created when missing, as the
// SDK's own tests do), its labels, and a file's classification.
// Env: BASE_URL, UPLOAD_URL, TOKEN, ADMIN_TOKEN.
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;
const FIELD = 'Box__Security__Classification__Key';

async function main() {
  const admin = genClient(env('ADMIN_TOKEN'));
  const user = genClient(env('TOKEN'));
  console.log(`${genLabel()} (classifications)`);

  await step('template, made when missing', async () => {
    let tpl;
    try {
      tpl = await admin.classifications.getClassificationTemplate();
    } catch (err) {
      tpl = await admin.classifications.createClassificationTemplate({
        scope: 'enterprise', templateKey: 'securityClassification-6VMVochwUWo', displayName: 'Classification',
        fields: [{ type: 'enum', key: FIELD, displayName: 'Classification', hidden: false, options: [] }],
      });
    }
    check('template key', tpl.templateKey === 'securityClassification-6VMVochwUWo', tpl.templateKey);
  });
  await step('labels: add, edit', async () => {
    let tpl = await admin.classifications.addClassification([{
      op: 'addEnumOption', fieldKey: FIELD,
      data: { key: `Secret${RUN}`, staticConfig: { classification: { classificationDefinition: 'Few eyes', colorId: 4 } } },
    }]);
    const opt = tpl.fields[0].options.find((o) => o.key === `Secret${RUN}`);
    check('label added', !!opt, JSON.stringify(tpl.fields[0].options));
    check('label definition', opt && opt.staticConfig.classification.classificationDefinition === 'Few eyes');
    tpl = await admin.classifications.updateClassification([{
      op: 'editEnumOption', fieldKey: FIELD, enumOptionKey: `Secret${RUN}`,
      data: { key: `TopSecret${RUN}`, staticConfig: { classification: { classificationDefinition: 'Fewer eyes', colorId: 5 } } },
    }]);
    check('label renamed', tpl.fields[0].options.some((o) => o.key === `TopSecret${RUN}`));
  });
  const file = await step('upload', async () => (await user.uploads.uploadFile({
    attributes: { name: `classified-${RUN}.txt`, parent: { id: '0' } }, file: Readable.from([Buffer.from('x')]),
  })).entries[0]);
  if (!file) return finish(`${genLabel()} classifications`);
  await step('file classification', async () => {
    const none = await failure(user.fileClassifications.getClassificationOnFile(file.id));
    check('none yet: 404', none.status === 404, JSON.stringify(none));
    const added = await user.fileClassifications.addClassificationToFile(file.id, { requestBody: { boxSecurityClassificationKey: `TopSecret${RUN}` } });
    check('added', added.boxSecurityClassificationKey === `TopSecret${RUN}`, JSON.stringify(added));
    const bad = await failure(user.fileClassifications.updateClassificationOnFile(file.id, [{ op: 'replace', path: `/${FIELD}`, value: 'NoSuchLabel' }]));
    check('unknown label: 400', bad.status === 400, JSON.stringify(bad));
    const got = await user.fileClassifications.getClassificationOnFile(file.id);
    check('read back', got.boxSecurityClassificationKey === `TopSecret${RUN}`);
    await user.fileClassifications.deleteClassificationFromFile(file.id);
    const gone = await failure(user.fileClassifications.getClassificationOnFile(file.id));
    check('removed: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`${genLabel()} classifications`);
}

main().catch((err) => { console.error(err); process.exit(1); });
