package cms

// LegalHoldPoliciesService handles legal hold policies (/legal_hold_policies).
type LegalHoldPoliciesService service

// LegalHoldPolicyAssignmentsService handles legal hold policy assignments (/legal_hold_policy_assignments).
type LegalHoldPolicyAssignmentsService service

// FileVersionLegalHoldsService handles file version legal holds (/file_version_legal_holds).
type FileVersionLegalHoldsService service
