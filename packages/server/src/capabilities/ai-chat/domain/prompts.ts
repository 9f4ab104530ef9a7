/**
 * What the assistant is told for each kind of e-mail source it helps with,
 * and the one tool it may call there: proposing a whole new source, which the
 * client shows the admin to accept (the assistant saves nothing itself).
 */
import type { AiChatContextType } from "@latchkey/shared";
import type { ChatTool } from "../../../integrations/chat-completions.ts";

interface ContextPrompt {
  what: string;
  rules: string;
  toolName: string;
}

// The sandbox's own contract is domain/emails/render/types.ts; the assistant is told the same, so what it proposes renders.
const SANDBOX_RULES = `It is TSX rendered with React Email. It may import only from "react", "@react-email/components", "arktype" and "@stackframe/emails" (which offers <Subject value="…">, <NotificationCategory value="Transactional|Marketing"> and <ProjectLogo data={projectLogos} mode="light|dark">). Style with inline style objects.`;

const PROMPTS: Record<AiChatContextType, ContextPrompt> = {
  "email-template": {
    what: "an e-mail template",
    rules: `${SANDBOX_RULES} It exports a function named EmailTemplate, which receives { user, project, variables }, and may export a function subject with the same argument that returns the subject line.`,
    toolName: "createEmailTemplate",
  },
  "email-draft": {
    what: "an e-mail draft (a message to send once)",
    rules: `${SANDBOX_RULES} It exports a function named EmailTemplate, which receives { user, project }, and may export a function subject that returns the subject line.`,
    toolName: "createEmailTemplate",
  },
  "email-theme": {
    what: "an e-mail theme (the frame around every message)",
    rules: `${SANDBOX_RULES} It exports a function named EmailTheme, which receives { children, unsubscribeLink, projectLogos } and renders the whole document around children, with the unsubscribe link when there is one (projectLogos holds the project's logo URLs for <ProjectLogo>).`,
    toolName: "createEmailTheme",
  },
};

export function systemPrompt(context: AiChatContextType, currentSource: string | null): string {
  const prompt = PROMPTS[context];
  const lines = [
    `You help a project's admin change ${prompt.what} in their authentication dashboard.`,
    prompt.rules,
    `When the admin asks for a change, call ${prompt.toolName} with the complete new source (never a fragment or a diff), then say in one or two sentences what you changed. Answer questions without calling it.`,
  ];
  if (currentSource !== null) lines.push("The current source:", "```tsx", currentSource, "```");
  return lines.join("\n");
}

export function contextTools(context: AiChatContextType): ChatTool[] {
  const prompt = PROMPTS[context];
  return [
    {
      type: "function",
      function: {
        name: prompt.toolName,
        description: `Propose the complete new source of ${prompt.what}. The admin sees it and decides whether to keep it.`,
        parameters: {
          type: "object",
          properties: { content: { type: "string", description: "The complete TSX source" } },
          required: ["content"],
          additionalProperties: false,
        },
      },
    },
  ];
}
