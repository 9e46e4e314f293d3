'use strict';
// box-typescript-sdk-gen, unchanged, against the reference server:
// retention (policy, folder assignment, a file uploaded there, its file
// version retention) and legal holds (policy, file assignment, file version
// legal holds, release). Governance is admin only: ADMIN_TOKEN.
const { Readable } = require('stream');
const { genSDK, genLabel, env, bytes, check, step, finish, customBaseUrls } = require('../lib/common');
const { BoxClient, BoxDeveloperTokenAuth } = genSDK();

const RUN = `${process.pid}-${Date.now()}`;


async function main() {
  const client = new BoxClient({ auth: new BoxDeveloperTokenAuth({ token: env('ADMIN_TOKEN') }) }).withCustomBaseUrls(customBaseUrls());
  console.log(`${genLabel()} (governance)`);

  let policy, folder, assignment, file;
  await step('create retention policy', async () => {
    policy = await client.retentionPolicies.createRetentionPolicy({
      policyName: `Keep ${RUN}`,
      policyType: 'finite',
      dispositionAction: 'remove_retention',
      retentionLength: '30',
      retentionType: 'modifiable',
      description: 'conformance',
      areOwnersNotified: false,
      canOwnerExtendRetention: false,
    });
    check('policy has an id', policy && typeof policy.id === 'string' && policy.id !== '');
    check('policy retention_length is "30"', policy && policy.retentionLength === '30', policy && policy.retentionLength);
    check('policy status active', policy && policy.status === 'active', policy && policy.status);
  });
  if (!policy) return;

  await step('get and list retention policies', async () => {
    const got = await client.retentionPolicies.getRetentionPolicyById(policy.id);
    check('get returns the policy', got.id === policy.id && got.policyName === policy.policyName);
    const list = await client.retentionPolicies.getRetentionPolicies({ policyName: `Keep ${RUN}` });
    check('list finds it by name', list.entries.length === 1 && list.entries[0].id === policy.id, JSON.stringify(list.entries));
  });

  await step('assign it to a folder', async () => {
    folder = await client.folders.createFolder({ name: `Retained ${RUN}`, parent: { id: '0' } });
    assignment = await client.retentionPolicyAssignments.createRetentionPolicyAssignment({
      policyId: policy.id,
      assignTo: { type: 'folder', id: folder.id },
    });
    check('assignment targets the folder', assignment.assignedTo && assignment.assignedTo.id === folder.id, JSON.stringify(assignment.assignedTo));
    check('assignment names the policy', assignment.retentionPolicy && assignment.retentionPolicy.id === policy.id);
    const list = await client.retentionPolicyAssignments.getRetentionPolicyAssignments(policy.id, { queryParams: { type: 'folder' } });
    check('policy lists the assignment', list.entries.length === 1 && list.entries[0].id === assignment.id);
  });
  if (!assignment) return;

  await step('upload a file there and list its file version retention', async () => {
    const res = await client.uploads.uploadFile({
      attributes: { name: `retained-${RUN}.bin`, parent: { id: folder.id } },
      file: Readable.from([bytes(1000, 'gov-ret')]),
    });
    file = res.entries[0];
    const fvrs = await client.fileVersionRetentions.getFileVersionRetentions({ fileId: file.id });
    check('one file version retention', fvrs.entries.length === 1, JSON.stringify(fvrs.entries));
    const r = fvrs.entries[0];
    check('it retains the uploaded version', r && r.fileVersion && r.fileVersion.id === file.fileVersion.id);
    check('its winning policy is ours', r && r.winningRetentionPolicy && r.winningRetentionPolicy.id === policy.id);
    check('applied_at and disposition_at are 30 days apart', r && r.dispositionAt && r.appliedAt &&
      Math.round((new Date(r.dispositionAt.value || r.dispositionAt) - new Date(r.appliedAt.value || r.appliedAt)) / 86400000) === 30);
    const one = await client.fileVersionRetentions.getFileVersionRetentionById(r.id);
    check('get by id', one.id === r.id);
    const under = await client.retentionPolicyAssignments.getFilesUnderRetentionPolicyAssignment(assignment.id);
    check('files under retention lists the file', under.entries.some((f) => f.id === file.id), JSON.stringify(under.entries));
  });

  await step('a retained file goes to the trash and stays there', async () => {
    await client.files.deleteFileById(file.id);
    const trashed = await client.trashedFiles.getTrashedFileById(file.id);
    check('delete moves it to the trash', trashed.itemStatus === 'trashed', trashed.itemStatus);
    let status;
    try {
      await client.trashedFiles.deleteTrashedFileById(file.id);
    } catch (err) {
      status = err.responseInfo && err.responseInfo.statusCode;
    }
    check('permanent delete answers 403', status === 403, String(status));
    const still = await client.fileVersionRetentions.getFileVersionRetentions({ fileId: file.id });
    check('the version stays retained', still.entries.length === 1, JSON.stringify(still.entries));
    const restored = await client.trashedFiles.restoreFileFromTrash(file.id);
    check('restored from the trash', restored.itemStatus === 'active', restored.itemStatus);
  });

  await step('retire the policy', async () => {
    const up = await client.retentionPolicies.updateRetentionPolicyById(policy.id, { requestBody: { status: 'retired' } });
    check('policy retired', up.status === 'retired', up.status);
  });

  let hold, holdAssignment, held;
  await step('create a legal hold policy', async () => {
    hold = await client.legalHoldPolicies.createLegalHoldPolicy({ policyName: `Case ${RUN}`, isOngoing: true, description: 'conformance' });
    check('hold policy has an id', hold && hold.id);
    check('hold policy is applying or active', hold && (hold.status === 'applying' || hold.status === 'active'), hold && hold.status);
  });
  if (!hold) return;

  await step('assign it to a file and list the file version legal holds', async () => {
    const res = await client.uploads.uploadFile({
      attributes: { name: `held-${RUN}.bin`, parent: { id: '0' } },
      file: Readable.from([bytes(1000, 'gov-hold')]),
    });
    held = res.entries[0];
    holdAssignment = await client.legalHoldPolicyAssignments.createLegalHoldPolicyAssignment({
      policyId: hold.id,
      assignTo: { type: 'file', id: held.id },
    });
    check('assignment targets the file', holdAssignment.assignedTo && holdAssignment.assignedTo.id === held.id);
    const list = await client.legalHoldPolicyAssignments.getLegalHoldPolicyAssignments({ policyId: hold.id });
    check('policy lists the assignment', list.entries.length === 1 && list.entries[0].id === holdAssignment.id);
    const holds = await client.fileVersionLegalHolds.getFileVersionLegalHolds({ policyId: hold.id });
    check('one file version legal hold', holds.entries.length === 1, JSON.stringify(holds.entries));
    const h = holds.entries[0];
    check('it holds the uploaded version', h && h.fileVersion && h.fileVersion.id === held.fileVersion.id);
    check('its type is file_version_legal_hold', h && h.type === 'file_version_legal_hold', h && h.type);
    const one = await client.fileVersionLegalHolds.getFileVersionLegalHoldById(h.id);
    check('get by id', one.id === h.id);
    const onHold = await client.legalHoldPolicyAssignments.getLegalHoldPolicyAssignmentFileOnHold(holdAssignment.id);
    check('files on hold lists the file', onHold.entries.some((f) => f.id === held.id));
    const policy2 = await client.legalHoldPolicies.getLegalHoldPolicyById(hold.id);
    check('assignment_counts.file is 1', policy2.assignmentCounts && policy2.assignmentCounts.file === 1, JSON.stringify(policy2.assignmentCounts));
  });

  await step('release the legal hold policy', async () => {
    await client.legalHoldPolicies.deleteLegalHoldPolicyById(hold.id);
    const got = await client.legalHoldPolicies.getLegalHoldPolicyById(hold.id);
    check('policy is releasing or released', got.status === 'releasing' || got.status === 'released', got.status);
  });
}

main().catch((err) => {
  console.log(`  FAIL unexpected: ${err && err.stack}`);
  process.exitCode = 1;
}).then(() => finish(`${genLabel()} governance`));
