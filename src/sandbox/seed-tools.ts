import type { WireToolCatalogEntry } from "./wire-shapes.ts";

function stringParam(description: string) {
  return { type: "string", description };
}

/** The tool catalog is the platform's, so every organization sees the same entries. */
export function toolCatalog(): WireToolCatalogEntry[] {
  const entry = (
    id: string,
    name: string,
    description: string,
    category: string,
    type: WireToolCatalogEntry["type"],
    properties: Record<string, unknown>,
  ): WireToolCatalogEntry => ({
    id,
    name,
    description,
    category,
    type,
    parameters: { type: "object", properties, required: Object.keys(properties) },
  });
  return [
    entry(
      "tool_calendar_booking",
      "Calendar booking",
      "Books, moves or cancels appointments.",
      "scheduling",
      "INTEGRATION",
      {
        date: stringParam("ISO 8601 date-time of the slot"),
      },
    ),
    entry(
      "tool_call_transfer",
      "Call transfer",
      "Transfers the call to a human or another number.",
      "telephony",
      "FUNCTION",
      {
        destination: stringParam("E.164 phone number"),
      },
    ),
    entry("tool_end_call", "End call", "Ends the call politely.", "telephony", "FUNCTION", {}),
    entry(
      "tool_sms_send",
      "Send SMS",
      "Sends a text message to the contact.",
      "messaging",
      "FUNCTION",
      {
        message: stringParam("Text to send"),
      },
    ),
    entry(
      "tool_crm_lookup",
      "CRM lookup",
      "Looks a contact up in the connected CRM.",
      "crm",
      "INTEGRATION",
      {
        phoneNumber: stringParam("E.164 phone number"),
      },
    ),
    entry(
      "tool_knowledge_search",
      "Knowledge search",
      "Searches the knowledge-base documents.",
      "knowledge",
      "FUNCTION",
      {
        query: stringParam("What to look for"),
      },
    ),
    entry(
      "tool_payment_link",
      "Payment link",
      "Sends a secure payment link.",
      "payments",
      "INTEGRATION",
      {
        amount: { type: "number", description: "Amount in the organization's currency" },
      },
    ),
    entry(
      "tool_webhook",
      "Webhook",
      "Calls a custom HTTPS endpoint with the call context.",
      "custom",
      "FUNCTION",
      {
        url: stringParam("HTTPS endpoint"),
      },
    ),
  ];
}
