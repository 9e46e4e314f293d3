'use strict';
// box-node-sdk (classic), unchanged, against the reference server:
// retention (policy, folder assignment, a file uploaded there, its file
// version retention) and legal holds (policy, file assignment, file version
// legal holds, release). Governance is admin only: ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, bytes, check, step, finish, classicSDK } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;


async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (governance)`);

  let policy, folder, assignment, file;
  await step('create retention policy', async () => {
    policy = await client.retentionPolicies.create(`Keep ${RUN}`, 'finite', 'permanently_delete', {
      retention_length: 30, // a number, as this SDK documents it
      retention_type: 'modifiable',
      are_owners_notified: true,
      can_owner_extend_retention: false,
    });
    check('policy has an id', policy && policy.id);
    check('policy retention_length is "30"', policy && policy.retention_length === '30', policy && policy.retention_length);
    check('policy is finite', policy && policy.policy_type === 'finite');
  });
  if (!policy) return;

  await step('list retention policies', async () => {
    const list = await client.retentionPolicies.getAll({ policy_name: `Keep ${RUN}`, policy_type: 'finite' });
    check('list finds it', list.entries.length === 1 && list.entries[0].id === policy.id, JSON.stringify(list));
  });

  await step('assign it to a folder', async () => {
    folder = await client.folders.create('0', `Retained ${RUN}`);
    assignment = await client.retentionPolicies.assign(policy.id, 'folder', folder.id);
    check('assignment targets the folder', assignment.assigned_to && assignment.assigned_to.id === folder.id, JSON.stringify(assignment));
    const list = await client.retentionPolicies.getAssignments(policy.id, { type: 'folder' });
    check('policy lists the assignment', list.entries.length === 1 && list.entries[0].id === assignment.id);
  });
  if (!assignment) return;

  await step('upload a file there and list its file version retention', async () => {
    const res = await client.files.uploadFile(folder.id, `retained-${RUN}.bin`, bytes(1000, 'node-gov-ret'));
    file = res.entries[0];
    const fvrs = await client.retentionPolicies.getAllFileVersionRetentions({ file_id: file.id, policy_id: policy.id });
    check('one file version retention', fvrs.entries.length === 1, JSON.stringify(fvrs));
    const r = fvrs.entries[0];
    check('it retains the uploaded version', r && r.file_version.id === file.file_version.id);
    check('winning policy is ours', r && r.winning_retention_policy.id === policy.id);
    const one = await client.retentionPolicies.getFileVersionRetention(r.id);
    check('get by id', one.id === r.id);
    const under = await client.retentionPolicies.getFilesUnderRetentionForAssignment(assignment.id);
    check('files under retention lists it', under.entries.some((f) => f.id === file.id), JSON.stringify(under));
    const versions = await client.retentionPolicies.getFileVersionsUnderRetentionForAssignment(assignment.id);
    check('no earlier version under retention yet', versions.entries.length === 0, JSON.stringify(versions));
  });

  let hold, held, holdAssignment;
  await step('create a legal hold policy', async () => {
    hold = await client.legalHoldPolicies.create(`Case ${RUN}`, { is_ongoing: true, description: 'conformance' });
    check('hold policy has an id', hold && hold.id);
  });
  if (!hold) return;

  await step('assign it to a file and list the file version legal holds', async () => {
    const res = await client.files.uploadFile('0', `held-${RUN}.bin`, bytes(1000, 'node-gov-hold'));
    held = res.entries[0];
    holdAssignment = await client.legalHoldPolicies.assign(hold.id, 'file', held.id);
    check('assignment targets the file', holdAssignment.assigned_to.id === held.id);
    const list = await client.legalHoldPolicies.getAssignments(hold.id, { assign_to_type: 'file' });
    check('policy lists the assignment', list.entries.length === 1 && list.entries[0].id === holdAssignment.id);
    const holds = await client.legalHoldPolicies.getAllFileVersionLegalHolds(hold.id);
    check('one file version legal hold', holds.entries.length === 1, JSON.stringify(holds));
    const h = holds.entries[0];
    check('it holds the uploaded version', h && h.file_version.id === held.file_version.id);
    const one = await client.legalHoldPolicies.getFileVersionLegalHold(h.id);
    check('get by id', one.id === h.id && one.type === 'file_version_legal_hold');
  });

  await step('release the assignment and the policy', async () => {
    await client.legalHoldPolicies.deleteAssignment(holdAssignment.id);
    await client.legalHoldPolicies.delete(hold.id);
    const got = await client.legalHoldPolicies.get(hold.id);
    check('policy is releasing or released', got.status === 'releasing' || got.status === 'released', got.status);
  });
}

main().catch((err) => {
  console.log(`  FAIL unexpected: ${err && err.stack}`);
  process.exitCode = 1;
}).then(() => finish(`box-node-sdk ${pkgVersion('box-node-sdk')} governance`));
