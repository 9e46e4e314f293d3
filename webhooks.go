package cms

import (
	"context"
	"iter"
	"net"
	"net/http"
	"net/url"
	"time"
)

// WebhooksService manages V2 webhooks: a target (a file or a folder), an
// address the service POSTs deliveries to, and the triggers that fire it
// (/webhooks). Verifying a delivery is VerifyWebhook / NewWebhookHandler
// (webhook_verify.go).
type WebhooksService service

// WebhookTrigger is an event that fires a webhook.
type WebhookTrigger string

// The triggers of the spec (Webhook triggers). FOLDER.* and
// COLLABORATION.* fire only on folder targets.
const (
	WebhookTriggerFileUploaded                   WebhookTrigger = "FILE.UPLOADED"
	WebhookTriggerFilePreviewed                  WebhookTrigger = "FILE.PREVIEWED"
	WebhookTriggerFileDownloaded                 WebhookTrigger = "FILE.DOWNLOADED"
	WebhookTriggerFileTrashed                    WebhookTrigger = "FILE.TRASHED"
	WebhookTriggerFileDeleted                    WebhookTrigger = "FILE.DELETED"
	WebhookTriggerFileRestored                   WebhookTrigger = "FILE.RESTORED"
	WebhookTriggerFileCopied                     WebhookTrigger = "FILE.COPIED"
	WebhookTriggerFileMoved                      WebhookTrigger = "FILE.MOVED"
	WebhookTriggerFileLocked                     WebhookTrigger = "FILE.LOCKED"
	WebhookTriggerFileUnlocked                   WebhookTrigger = "FILE.UNLOCKED"
	WebhookTriggerFileRenamed                    WebhookTrigger = "FILE.RENAMED"
	WebhookTriggerCommentCreated                 WebhookTrigger = "COMMENT.CREATED"
	WebhookTriggerCommentUpdated                 WebhookTrigger = "COMMENT.UPDATED"
	WebhookTriggerCommentDeleted                 WebhookTrigger = "COMMENT.DELETED"
	WebhookTriggerTaskAssignmentCreated          WebhookTrigger = "TASK_ASSIGNMENT.CREATED"
	WebhookTriggerTaskAssignmentUpdated          WebhookTrigger = "TASK_ASSIGNMENT.UPDATED"
	WebhookTriggerMetadataInstanceCreated        WebhookTrigger = "METADATA_INSTANCE.CREATED"
	WebhookTriggerMetadataInstanceUpdated        WebhookTrigger = "METADATA_INSTANCE.UPDATED"
	WebhookTriggerMetadataInstanceDeleted        WebhookTrigger = "METADATA_INSTANCE.DELETED"
	WebhookTriggerFolderCreated                  WebhookTrigger = "FOLDER.CREATED"
	WebhookTriggerFolderRenamed                  WebhookTrigger = "FOLDER.RENAMED"
	WebhookTriggerFolderDownloaded               WebhookTrigger = "FOLDER.DOWNLOADED"
	WebhookTriggerFolderRestored                 WebhookTrigger = "FOLDER.RESTORED"
	WebhookTriggerFolderDeleted                  WebhookTrigger = "FOLDER.DELETED"
	WebhookTriggerFolderCopied                   WebhookTrigger = "FOLDER.COPIED"
	WebhookTriggerFolderMoved                    WebhookTrigger = "FOLDER.MOVED"
	WebhookTriggerFolderTrashed                  WebhookTrigger = "FOLDER.TRASHED"
	WebhookTriggerWebhookDeleted                 WebhookTrigger = "WEBHOOK.DELETED"
	WebhookTriggerCollaborationCreated           WebhookTrigger = "COLLABORATION.CREATED"
	WebhookTriggerCollaborationAccepted          WebhookTrigger = "COLLABORATION.ACCEPTED"
	WebhookTriggerCollaborationRejected          WebhookTrigger = "COLLABORATION.REJECTED"
	WebhookTriggerCollaborationRemoved           WebhookTrigger = "COLLABORATION.REMOVED"
	WebhookTriggerCollaborationUpdated           WebhookTrigger = "COLLABORATION.UPDATED"
	WebhookTriggerSharedLinkDeleted              WebhookTrigger = "SHARED_LINK.DELETED"
	WebhookTriggerSharedLinkCreated              WebhookTrigger = "SHARED_LINK.CREATED"
	WebhookTriggerSharedLinkUpdated              WebhookTrigger = "SHARED_LINK.UPDATED"
	WebhookTriggerSignRequestCompleted           WebhookTrigger = "SIGN_REQUEST.COMPLETED"
	WebhookTriggerSignRequestDeclined            WebhookTrigger = "SIGN_REQUEST.DECLINED"
	WebhookTriggerSignRequestExpired             WebhookTrigger = "SIGN_REQUEST.EXPIRED"
	WebhookTriggerSignRequestSignerEmailBounced  WebhookTrigger = "SIGN_REQUEST.SIGNER_EMAIL_BOUNCED"
	WebhookTriggerSignRequestSignSignerSigned    WebhookTrigger = "SIGN_REQUEST.SIGN_SIGNER_SIGNED"
	WebhookTriggerSignRequestSignDocumentCreated WebhookTrigger = "SIGN_REQUEST.SIGN_DOCUMENT_CREATED"
	WebhookTriggerSignRequestSignErrorFinalizing WebhookTrigger = "SIGN_REQUEST.SIGN_ERROR_FINALIZING"
)

// webhookTriggers are the known triggers, and whether each is a folder's
// only.
var webhookTriggers = map[WebhookTrigger]bool{
	WebhookTriggerFileUploaded: false, WebhookTriggerFilePreviewed: false, WebhookTriggerFileDownloaded: false,
	WebhookTriggerFileTrashed: false, WebhookTriggerFileDeleted: false, WebhookTriggerFileRestored: false,
	WebhookTriggerFileCopied: false, WebhookTriggerFileMoved: false, WebhookTriggerFileLocked: false,
	WebhookTriggerFileUnlocked: false, WebhookTriggerFileRenamed: false,
	WebhookTriggerCommentCreated: false, WebhookTriggerCommentUpdated: false, WebhookTriggerCommentDeleted: false,
	WebhookTriggerTaskAssignmentCreated: false, WebhookTriggerTaskAssignmentUpdated: false,
	WebhookTriggerMetadataInstanceCreated: false, WebhookTriggerMetadataInstanceUpdated: false,
	WebhookTriggerMetadataInstanceDeleted: false,
	WebhookTriggerFolderCreated:           true, WebhookTriggerFolderRenamed: true, WebhookTriggerFolderDownloaded: true,
	WebhookTriggerFolderRestored: true, WebhookTriggerFolderDeleted: true, WebhookTriggerFolderCopied: true,
	WebhookTriggerFolderMoved: true, WebhookTriggerFolderTrashed: true,
	WebhookTriggerWebhookDeleted:       false,
	WebhookTriggerCollaborationCreated: true, WebhookTriggerCollaborationAccepted: true,
	WebhookTriggerCollaborationRejected: true, WebhookTriggerCollaborationRemoved: true,
	WebhookTriggerCollaborationUpdated: true,
	WebhookTriggerSharedLinkDeleted:    false, WebhookTriggerSharedLinkCreated: false, WebhookTriggerSharedLinkUpdated: false,
	WebhookTriggerSignRequestCompleted: false, WebhookTriggerSignRequestDeclined: false, WebhookTriggerSignRequestExpired: false,
	WebhookTriggerSignRequestSignerEmailBounced: false, WebhookTriggerSignRequestSignSignerSigned: false,
	WebhookTriggerSignRequestSignDocumentCreated: false, WebhookTriggerSignRequestSignErrorFinalizing: false,
}

// WebhookTarget is the file or folder a webhook watches (a folder's
// webhook fires for everything below it): an ItemRef.
//
// Deprecated: use ItemRef, the one type naming an item by kind and id.
type WebhookTarget = ItemRef

// Webhook is a configured webhook (Webhook).
type Webhook struct {
	ID        string           `json:"id"`
	Type      string           `json:"type,omitzero"`
	Target    *ItemRef         `json:"target,omitzero"`
	CreatedBy *UserMini        `json:"created_by,omitzero"`
	CreatedAt time.Time        `json:"created_at,omitzero"`
	Address   string           `json:"address,omitzero"`
	Triggers  []WebhookTrigger `json:"triggers,omitzero"`
}

// CreateWebhookRequest is the body of WebhooksService.Create.
type CreateWebhookRequest struct {
	// Target is the file or folder to watch (not the root folder 0).
	Target ItemRef `json:"target"`
	// Address is where deliveries go: an absolute https URL (the service
	// takes no other; http is let through only for a loopback host, where a
	// reference server delivers to a test's receiver).
	Address string `json:"address"`
	// Triggers are the events that fire it (at least one).
	Triggers []WebhookTrigger `json:"triggers"`
}

// UpdateWebhookRequest is the body of WebhooksService.Update; zero fields
// keep their value.
type UpdateWebhookRequest struct {
	Target   *ItemRef         `json:"target,omitzero"`
	Address  string           `json:"address,omitzero"`
	Triggers []WebhookTrigger `json:"triggers,omitempty"`
}

// checkWebhook checks the parts of a webhook a request sets (empty ones
// are not set).
func checkWebhook(target *ItemRef, address string, triggers []WebhookTrigger, requireAll bool) error {
	if target != nil {
		if err := firstErr(checkEnum("webhook target type", target.Type, ItemTypeFile, ItemTypeFolder), checkID("webhook target", target.ID)); err != nil {
			return err
		}
		if target.Type == "" {
			return invalidArg("webhook target type", "empty: use ItemTypeFile or ItemTypeFolder")
		}
		if target.Type == ItemTypeFolder && target.ID == "0" {
			return invalidArg("webhook target", "the root folder cannot have a webhook")
		}
	}
	if address != "" || requireAll {
		if err := checkWebhookAddress(address); err != nil {
			return err
		}
	}
	if requireAll && len(triggers) == 0 {
		return invalidArg("webhook triggers", "at least one")
	}
	for _, t := range triggers {
		folderOnly, ok := webhookTriggers[t]
		if !ok {
			return invalidArg("webhook trigger", "unknown trigger "+string(t))
		}
		if folderOnly && target != nil && target.Type == ItemTypeFile {
			return invalidArg("webhook trigger", string(t)+" fires on folders only")
		}
	}
	return nil
}

// checkWebhookAddress: an absolute https URL, or http on a loopback host.
func checkWebhookAddress(a string) error {
	u, err := url.Parse(a)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return invalidArg("webhook address", "an absolute https URL")
	}
	if u.Scheme == "https" {
		return nil
	}
	if ip := net.ParseIP(u.Hostname()); u.Scheme == "http" && (u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()) {
		return nil
	}
	return invalidArg("webhook address", "an https URL")
}

// Create creates a webhook (POST /webhooks): 201 with the webhook. A
// second webhook of the same user on the same target fails with an
// *APIError matching ErrConflict.
func (s *WebhooksService) Create(ctx context.Context, body *CreateWebhookRequest) (*Webhook, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkWebhook(&body.Target, body.Address, body.Triggers, true); err != nil {
		return nil, nil, err
	}
	return callAPI[Webhook](ctx, s.client, http.MethodPost, body, nil, "webhooks")
}

// Get fetches a webhook (GET /webhooks/{webhook_id}).
func (s *WebhooksService) Get(ctx context.Context, webhookID string) (*Webhook, *Response, error) {
	if err := checkID("webhook", webhookID); err != nil {
		return nil, nil, err
	}
	return getAPI[Webhook](ctx, s.client, nil, "webhooks", webhookID)
}

// Update changes a webhook's target, address or triggers
// (PUT /webhooks/{webhook_id}).
func (s *WebhooksService) Update(ctx context.Context, webhookID string, body *UpdateWebhookRequest) (*Webhook, *Response, error) {
	if err := checkID("webhook", webhookID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkWebhook(body.Target, body.Address, body.Triggers, false); err != nil {
		return nil, nil, err
	}
	return callAPI[Webhook](ctx, s.client, http.MethodPut, body, nil, "webhooks", webhookID)
}

// Delete deletes a webhook (DELETE /webhooks/{webhook_id}); no delivery
// follows, except WEBHOOK.DELETED when it has that trigger.
func (s *WebhooksService) Delete(ctx context.Context, webhookID string) (*Response, error) {
	if err := checkID("webhook", webhookID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "webhooks", webhookID)
}

// ListWebhooksOptions are the options of WebhooksService.List.
type ListWebhooksOptions struct {
	// Marker is the position to start at: a NextMarker of an earlier page
	// (query marker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
}

// List returns one marker page of the caller's webhooks (GET /webhooks).
// Response.NextMarker fetches the next page.
func (s *WebhooksService) List(ctx context.Context, opts *ListWebhooksOptions) (*MarkerPage[*Webhook], *Response, error) {
	if opts == nil {
		opts = &ListWebhooksOptions{}
	}
	return getMarkerPage[*Webhook](ctx, s.client, opts.Limit, opts, "webhooks")
}

// pages pages List with a private copy of opts.
func (s *WebhooksService) pages(opts *ListWebhooksOptions) (string, markerPageFunc[*Webhook]) {
	return pageFuncs(opts, func(o *ListWebhooksOptions) *string { return &o.Marker }, s.List)
}

// ListIter yields every webhook of the caller, fetching marker pages
// (GET /webhooks) lazily. It never changes opts.
func (s *WebhooksService) ListIter(ctx context.Context, opts *ListWebhooksOptions) iter.Seq2[*Webhook, error] {
	start, fetch := s.pages(opts)
	return markerSeq(ctx, start, fetch)
}

// NewListPaginator walks the caller's webhooks one marker page at a time
// (GET /webhooks). It never changes opts.
func (s *WebhooksService) NewListPaginator(opts *ListWebhooksOptions) *MarkerPaginator[*Webhook] {
	return newMarkerPaginator(s.pages(opts))
}
