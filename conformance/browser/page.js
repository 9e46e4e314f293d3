// The page the harness serves: mounts one of Box UI Elements' prebuilt
// bundles, unchanged, against the reference server named in window.CMS
// (config.js, written by harness.js). ?element=explorer (default), picker
// or uploader; ?view=files (default) or recents. What the element emits is kept
// in window.cmsEvents for the harness to read.
(function () {
	'use strict';
	const c = window.CMS;
	const q = new URLSearchParams(location.search);
	const kind = q.get('element') || 'explorer';
	window.cmsEvents = [];
	const options = {
		container: '#root',
		apiHost: c.apiHost,
		uploadHost: c.uploadHost,
		// ContentPreview is loaded from Box's CDN only: out of scope.
		canPreview: false,
		canCreateNewFolder: true,
		canDelete: true,
		canDownload: true,
		canRename: true,
		canSetShareAccess: true,
		canShare: true,
		canUpload: true,
		defaultView: q.get('view') || 'files',
		logoUrl: 'box',
	};
	let element;
	switch (kind) {
		case 'picker':
			element = new window.Box.ContentPicker();
			break;
		case 'uploader':
			element = new window.Box.ContentUploader();
			break;
		default:
			element = new window.Box.ContentExplorer();
	}
	for (const name of ['select', 'navigate', 'rename', 'download', 'delete', 'upload', 'create', 'choose', 'cancel', 'complete']) {
		element.on(name, function (data) {
			window.cmsEvents.push({ name: name, data: JSON.parse(JSON.stringify(data === undefined ? null : data)) });
		});
	}
	// ?folder=ID: the folder to show (the uploader's destination); the root
	// by default.
	element.show(q.get('folder') || c.rootFolderId, c.token, options);
	window.cmsElement = element;
})();
