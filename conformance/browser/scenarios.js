// The scenarios harness.js runs, in order, each on a new page over the same
// server (a later one may use what an earlier one made). A scenario with
// `pending` needs a server fix not made yet: it runs all the same, and its
// failure is reported as pending with that reason, not as a failure.
// `allow` lists the problems (harness.js's lines) a scenario expects, such
// as an error answer the element handles.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const HALVES_PNG =
	'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwAQMAAACbhe5cAAAABlBMVEXIPCgoWsi6Ph9EAAAAF0lEQVR4nGIAgf////8fZQwJBiAAAP//6oG/QUQppf8AAAAASUVORK5CYII=';

// setup adds, through the API, what the scenarios need beyond -seed's demo
// content: a picture in Photos, a folder of 55 files (more than the elements'
// page of 50), and
// "Work", a file for each scenario that changes one (so that none depends
// on another's outcome) and the folder that uploads and new folders go to.
async function setup(api) {
	const many = await api.json('POST', '/folders', { name: 'Many', parent: { id: '0' } });
	for (let i = 1; i <= 55; i++) {
		await api.upload(many.id, `file-${String(i).padStart(2, '0')}.txt`, `file ${i}\n`);
	}
	// A picture in the seed's Photos folder, for the grid's thumbnails (a
	// 64×48 PNG, red and blue halves).
	const root = await api.json('GET', '/folders/0/items?limit=1000');
	const photos = root.entries.find((e) => e.name === 'Photos');
	await api.upload(photos.id, 'halves.png', Buffer.from(HALVES_PNG, 'base64'));
	const work = await api.json('POST', '/folders', { name: 'Work', parent: { id: '0' } });
	for (const name of ['rename-me.txt', 'delete-me.txt', 'download-me.txt', 'share-me.txt', 'overwrite-me.txt']) {
		await api.upload(work.id, name, `${name}\n`);
	}
	return { manyID: many.id, workID: work.id };
}

const rows = (page) => page.locator('.be-ItemList-item');

// stored returns the file named name in the folder, as the API lists it.
async function stored(t, folderID, name) {
	const list = await t.api.json('GET', `/folders/${folderID}/items?fields=name,size&limit=1000`);
	const f = list.entries.find((e) => e.name === name);
	assert.ok(f, `${name} is not in the folder`);
	return f;
}
const names = (page) => page.locator('.be-ItemList-itemTitle').allInnerTexts();

// openFolder opens the explorer at the root and then the named folder.
async function openFolder(t, name) {
	await t.open();
	await t.page.getByText(name, { exact: true }).click();
	await t.page.getByRole('link', { name }).or(t.page.locator('.be-breadcrumbs').getByText(name)).first().waitFor();
	await rows(t.page).first().waitFor();
}

// itemMenu opens the "More options" menu of the named row.
async function itemMenu(page, name) {
	const row = rows(page).filter({ hasText: name });
	await row.hover();
	await row.getByRole('button', { name: 'More options' }).click();
}

const scenarios = [
	{
		name: 'list the root',
		async run(t) {
			await t.open();
			for (const n of ['Documents', 'Photos', 'welcome.txt', 'Many', 'Work']) {
				await t.page.getByText(n, { exact: true }).waitFor();
			}
			await t.shot('explorer-root');
		},
	},
	{
		name: 'navigate into a folder and back',
		async run(t) {
			await openFolder(t, 'Documents');
			assert.deepEqual((await names(t.page)).sort(), ['README.txt', 'notes.md']);
			await t.page.getByText('All Files', { exact: true }).click();
			await t.page.getByText('welcome.txt', { exact: true }).waitFor();
		},
	},
	{
		name: 'sort by name, both ways',
		async run(t) {
			await t.open();
			await rows(t.page).first().waitFor();
			const before = await names(t.page);
			const desc = t.page.waitForRequest((r) => r.url().includes('/folders/0?') && r.url().includes('direction=desc'));
			await t.page.getByRole('columnheader', { name: 'NAME' }).click();
			await desc;
			await t.page.waitForFunction(
				(first) => document.querySelector('.be-ItemList-itemTitle')?.textContent !== first,
				before[0],
			);
			const after = await names(t.page);
			// Folders first either way; each kind reversed.
			assert.deepEqual(after, ['Work', 'Photos', 'Many', 'Documents', 'welcome.txt']);
		},
	},
	{
		name: 'paginate a folder of 55 files',
		async run(t) {
			await openFolder(t, 'Many');
			await t.page.getByText('Showing 1 to 50 of 55 entries').waitFor();
			assert.equal((await names(t.page))[0], 'file-01.txt');
			await t.page.getByRole('button', { name: 'Next' }).click();
			await t.page.getByText('Showing 51 to 55 of 55 entries').waitFor();
			assert.deepEqual(await names(t.page), ['file-51.txt', 'file-52.txt', 'file-53.txt', 'file-54.txt', 'file-55.txt']);
		},
	},
	{
		name: 'search',
		async run(t) {
			await t.open();
			await rows(t.page).first().waitFor();
			await t.page.getByPlaceholder('Search files and folders').fill('notes');
			await t.page.getByText('Search Results', { exact: true }).or(t.page.getByText('notes.md', { exact: true })).first().waitFor();
			await t.page.getByText('notes.md', { exact: true }).waitFor();
			assert.deepEqual(await names(t.page), ['notes.md']);
		},
	},
	{
		name: 'create a folder',
		async run(t) {
			await openFolder(t, 'Work');
			await t.page.getByRole('button', { name: 'Add' }).click();
			await t.page.getByRole('menuitem', { name: 'New Folder' }).click();
			await t.page.getByRole('dialog').getByRole('textbox').fill('Made in the browser');
			// The explorer throttles its create-folder callback (500 ms, no
			// trailing call): the dialog's opening was the first call.
			await t.page.waitForTimeout(600);
			await t.page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
			await t.page.getByText('Made in the browser', { exact: true }).waitFor();
			await t.page.getByRole('dialog').waitFor({ state: 'detached' });
			await t.shot('explorer-created');
		},
	},
	{
		name: 'item details in the list (dates, sizes, file icons)',
		async run(t) {
			await t.open();
			await t.page.getByText('welcome.txt', { exact: true }).waitFor();
			assert.equal(await t.page.getByText('Invalid Date').count(), 0, 'dates show "Invalid Date"');
			// welcome.txt is 33 bytes (Photos, empty, is rightly 0 Byte).
			const row = await rows(t.page).filter({ hasText: 'welcome.txt' }).innerText();
			assert.match(row, /33 Bytes/, `welcome.txt's row: ${row.replace(/\s+/g, ' ')}`);
			await t.shot('explorer-details');
		},
	},
	{
		name: 'upload and new folder at the root',
		async run(t) {
			await t.open();
			await t.page.getByText('welcome.txt', { exact: true }).waitFor();
			await t.page.getByRole('button', { name: 'Add' }).click({ timeout: 3000 });
		},
	},
	{
		name: 'rename',
		async run(t) {
			await openFolder(t, 'Work');
			await itemMenu(t.page, 'rename-me.txt');
			await t.page.getByRole('menuitem', { name: 'Rename' }).click();
			// The dialog edits the name without its extension, and adds it back.
			await t.page.getByRole('dialog').getByRole('textbox').fill('renamed');
			await t.page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
			await t.page.getByText('renamed.txt', { exact: true }).waitFor();
		},
	},
	{
		name: 'delete',
		async run(t) {
			await openFolder(t, 'Work');
			await itemMenu(t.page, 'delete-me.txt');
			await t.page.getByRole('menuitem', { name: 'Delete' }).click();
			await t.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
			await t.page.getByText('delete-me.txt', { exact: true }).waitFor({ state: 'detached' });
		},
	},
	{
		name: 'download',
		// A navigation that becomes a download is reported aborted.
		allow: [/^GET \/d\/\S+ failed: net::ERR_ABORTED$/],
		async run(t) {
			await openFolder(t, 'Work');
			await itemMenu(t.page, 'download-me.txt');
			const popup = t.page.waitForEvent('download');
			await t.page.getByRole('menuitem', { name: 'Download' }).click();
			await popup;
		},
	},
	{
		name: 'share with the access selector',
		async run(t) {
			await openFolder(t, 'Work');
			await itemMenu(t.page, 'share-me.txt');
			await t.page.getByRole('menuitem', { name: 'Share' }).click();
			await t.page.getByText('Shared Link:').waitFor();
			await t.page.getByRole('dialog').getByRole('combobox').waitFor();
			await t.shot('explorer-share');
		},
	},
	{
		name: 'thumbnails in grid view',
		async run(t) {
			await openFolder(t, 'Photos');
			await t.page.getByRole('button', { name: 'Switch to Grid View' }).click();
			const img = t.page.locator('.be-ItemGrid-thumbnail img, .bdl-ItemGrid-thumbnail img, img[src*="representations"]').first();
			await img.waitFor({ timeout: 10000 });
			// A real image the browser decoded: the server's JPEG of the 64×48
			// PNG (representations.entries[0], never scaled up).
			await t.page.waitForFunction((el) => el.complete && el.naturalWidth === 64, await img.elementHandle(), { timeout: 10000 });
			await t.shot('explorer-grid');
		},
	},
	{
		name: 'Recents view',
		async run(t) {
			await t.open('?view=recents');
			await t.page.getByText('Recents', { exact: true }).first().waitFor();
			await t.page.getByText('welcome.txt', { exact: true }).waitFor({ timeout: 5000 });
		},
	},
	{
		name: 'upload a file (plain) into a folder',
		async run(t) {
			await openFolder(t, 'Work');
			await t.page.getByRole('button', { name: 'Add' }).click();
			await t.page.getByRole('menuitem', { name: 'Upload' }).click();
			await t.page.getByRole('dialog').locator('input[type=file]').first().setInputFiles({
				name: 'from-browser.txt',
				mimeType: 'text/plain',
				buffer: Buffer.from('uploaded by Content Explorer\n'),
			});
			await t.page.getByRole('dialog').getByRole('button', { name: 'Upload', exact: true }).click();
			await t.page.getByText('Success! Your files have been uploaded.').waitFor();
			await t.page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
			await t.page.getByText('from-browser.txt', { exact: true }).waitFor();
			assert.equal((await stored(t, t.shared.workID, 'from-browser.txt')).size, 29);
		},
	},
	{
		name: 'overwrite on a name conflict',
		// The pre-check's 409 is how Box tells the uploader of the conflict.
		allow: [/^OPTIONS \/2\.0\/files\/content answered 409$/, /^console error: .*status of 409/],
		async run(t) {
			await openFolder(t, 'Work');
			await t.page.getByRole('button', { name: 'Add' }).click();
			await t.page.getByRole('menuitem', { name: 'Upload' }).click();
			await t.page.getByRole('dialog').locator('input[type=file]').first().setInputFiles({
				name: 'overwrite-me.txt',
				mimeType: 'text/plain',
				buffer: Buffer.from('overwrite-me.txt, version 2\n'),
			});
			await t.page.getByRole('dialog').getByRole('button', { name: 'Upload', exact: true }).click();
			await t.page.getByText('Success! Your files have been uploaded.').waitFor();
			assert.equal((await stored(t, t.shared.workID, 'overwrite-me.txt')).size, 28, 'the new version is stored');
		},
	},
	{
		name: 'chunked upload (over 100 MB, from an https page)',
		async run(t) {
			// The uploader goes chunked above 100 MB, from an https page only.
			const file = path.join(t.cfg.outDir, 'chunked-upload.bin');
			fs.writeFileSync(file, '');
			fs.truncateSync(file, 105 * 1024 * 1024); // sparse: zeros
			try {
				await t.open('', { secure: true });
				await t.page.getByText('Work', { exact: true }).click();
				await rows(t.page).first().waitFor();
				await t.page.getByRole('button', { name: 'Add' }).click();
				await t.page.getByRole('menuitem', { name: 'Upload' }).click();
				await t.page.getByRole('dialog').locator('input[type=file]').first().setInputFiles(file);
				await t.page.getByRole('dialog').getByRole('button', { name: 'Upload', exact: true }).click();
				await t.page.getByText('Success! Your files have been uploaded.').waitFor({ timeout: 120000 });
				assert.equal((await stored(t, t.shared.workID, 'chunked-upload.bin')).size, 105 * 1024 * 1024);
			} finally {
				fs.rmSync(file, { force: true });
			}
		},
	},
	{
		name: 'Content Uploader: upload a file',
		async run(t) {
			await t.open(`?element=uploader&folder=${t.shared.workID}`);
			await t.page.locator('input[type=file]').first().setInputFiles({
				name: 'from-uploader.txt',
				mimeType: 'text/plain',
				buffer: Buffer.from('uploaded by Content Uploader\n'),
			});
			await t.page.getByRole('button', { name: 'Upload', exact: true }).click();
			await t.page.getByText('Success! Your files have been uploaded.').waitFor();
			await t.page.waitForFunction(() => window.cmsEvents.some((e) => e.name === 'complete'));
			assert.equal((await stored(t, t.shared.workID, 'from-uploader.txt')).size, 29);
			await t.shot('uploader');
		},
	},
	{
		name: 'picker selection',
		async run(t) {
			await t.open('?element=picker');
			const row = t.page.getByRole('row').filter({ hasText: 'welcome.txt' });
			await row.getByRole('checkbox').check();
			await t.page.getByRole('button', { name: 'Choose' }).click();
			await t.page.waitForFunction(() => window.cmsEvents.some((e) => e.name === 'choose'));
			const chosen = await t.page.evaluate(() => window.cmsEvents.find((e) => e.name === 'choose').data);
			assert.deepEqual(
				chosen.map((i) => i.name),
				['welcome.txt'],
			);
		},
	},
];

module.exports = { scenarios, setup };
