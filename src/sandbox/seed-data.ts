/**
 * Fixed facts of the seeded sandbox, shared by the README, the standalone server and tests.
 * Seeded ids are fixed strings with the resource's prefix; ids created at run time are the
 * prefix plus random alphanumerics.
 */

export const DEMO_KEYS = {
  /** Acme Health, full access. */
  acme: "sk_test_acme",
  /** Globex Corporation, full access to its own (smaller) data. */
  globex: "sk_test_globex",
  /** Acme Health, read-only: every POST/PATCH/DELETE answers 403 FORBIDDEN. */
  acmeReadonly: "sk_test_acme_readonly",
} as const;

/**
 * Session mode's demo over the embedded sandbox: each organization's key, held by the gateway,
 * by the organization ID a demo token names in its `org` claim (`npm run demo-token`).
 */
export const DEMO_ORGANIZATION_KEYS: Readonly<Record<string, string>> = {
  org_acme: DEMO_KEYS.acme,
  org_globex: DEMO_KEYS.globex,
};

/**
 * Extra organizations (the `extraOrganizations` option, for the bench): each has its own key and
 * `EXTRA_ORGANIZATION_AGENTS` agents and nothing else; the demo data is the same with or without.
 */
export const EXTRA_ORGANIZATION_AGENTS = 12;
const two = (n: number) => String(n).padStart(2, "0");
/** The key of extra organization `n` (from 1). */
export const extraOrganizationKey = (n: number): string => `sk_test_extra_${two(n)}`;
/** The ID of extra organization `n` (from 1). */
export const extraOrganizationId = (n: number): string => `org_extra_${two(n)}`;
/** The slug in its agents' IDs: `agt_extra01_001` … `agt_extra01_012`. */
export const extraOrganizationSlug = (n: number): string => `extra${two(n)}`;

/** Every seeded timestamp (except live calls, which follow the clock) is relative to this. */
export const SEED_BASE_TIME = Date.parse("2026-01-05T09:00:00.000Z");

export const SEED_IDS = {
  acmeOrganization: "org_acme",
  /** ACTIVE, two voice configs (en-US default, es-ES), phone number acmePhoneNumberAssigned. */
  acmeAgent: "agt_acme_reception",
  acmeAgentVoiceConfig: "vc_acme_reception_en",
  /** PAUSED, one voice config. */
  acmeAgentPaused: "agt_acme_scheduler",
  /** INACTIVE, two voice configs. */
  acmeAgentInactive: "agt_acme_billing",
  /** An agent without conversations or voice configs. */
  acmeAgentSimple: "agt_acme_004",
  acmeContact: "cnt_acme_maria",
  /** An ended (SUCCESS) conversation of acmeAgent with acmeContact. */
  acmeConversation: "cnv_acme_0001",
  /** IN_PROGRESS at start-up; ends by itself after callDurationMs. */
  acmeLiveConversation: "cnv_acme_live_1",
  /** COMPLETED, 12 failed rows: retry succeeds once. */
  acmeCampaignWithFailedRows: "cmp_acme_flu_shots",
  /** RUNNING: cannot be deleted. */
  acmeCampaignRunning: "cmp_acme_reminders",
  /** COMPLETED, no failed rows: retry answers 409. */
  acmeCampaignWithoutFailedRows: "cmp_acme_survey",
  /** Assigned to acmeAgent. */
  acmePhoneNumberAssigned: "phn_acme_01",
  acmePhoneNumberUnassigned: "phn_acme_04",
  acmeProperty: "prp_acme_insurance_provider",
  acmeDocument: "doc_acme_faq",
  tool: "tool_calendar_booking",

  globexOrganization: "org_globex",
  globexAgent: "agt_globex_support",
  globexContact: "cnt_globex_hank",
  globexConversation: "cnv_globex_0001",
  globexLiveConversation: "cnv_globex_live_1",
  /** COMPLETED with failed rows. */
  globexCampaign: "cmp_globex_launch",
  globexPhoneNumber: "phn_globex_02",
  globexProperty: "prp_globex_account_tier",
  globexDocument: "doc_globex_handbook",
} as const;

/** Sizes of the seeded data at start-up (conversations include the live calls). */
export const SEED_COUNTS = {
  acme: {
    agents: 45,
    agentsInConversations: 3,
    contacts: 12,
    conversations: 120,
    liveConversations: 3,
    campaigns: 30,
    phoneNumbers: 6,
    properties: 5,
    documents: 5,
  },
  globex: {
    agents: 5,
    agentsInConversations: 2,
    contacts: 3,
    conversations: 20,
    liveConversations: 2,
    campaigns: 4,
    phoneNumbers: 2,
    properties: 2,
    documents: 2,
  },
  tools: 8,
} as const;
