package cms

// RetentionPoliciesService handles retention policies (/retention_policies).
type RetentionPoliciesService service

// RetentionPolicyAssignmentsService handles retention policy assignments (/retention_policy_assignments).
type RetentionPolicyAssignmentsService service

// FileVersionRetentionsService handles file version retentions (/file_version_retentions).
type FileVersionRetentionsService service
