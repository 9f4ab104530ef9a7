/**
 * "Ask for a change": the AI assistant beside a TSX editor, offered only when
 * the server's operator connected one. The conversation is kept on the server
 * as a thread named after what is edited, so it is there again next time. The
 * assistant proposes whole sources; "Use this version" puts one in the editor,
 * where it is previewed and saved (or not) like any edit.
 */
import type { ChatContent, ChatContextType, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

interface ChatMessage {
  role: "user" | "assistant";
  content: ChatContent;
}

/** Saved messages are whatever JSON was saved: keep the ones this panel can show. */
function shownMessages(saved: unknown[]): ChatMessage[] {
  return saved.filter(
    (m): m is ChatMessage =>
      typeof m === "object" &&
      m !== null &&
      ["user", "assistant"].includes((m as ChatMessage).role) &&
      Array.isArray((m as ChatMessage).content),
  );
}

/** The source a tool-call block proposes, if it is one. */
function proposedSource(block: ChatContent[number]): string | null {
  if (block.type !== "tool-call") return null;
  const args = block.args as { content?: unknown } | null;
  return typeof args?.content === "string" ? args.content : null;
}

/** Which conversation: named after what is edited, about that kind of source. */
export interface AiChatThread {
  app: StackAdminApp;
  threadId: string;
  contextType: ChatContextType;
}

export function AiChatPanel({ app, threadId, contextType, onUse }: AiChatThread & { onUse: (source: string) => void }) {
  const enabled = useLoad(() => app.isAiChatEnabled(), [app]);
  const offered = enabled.status === "ready" && enabled.data;
  // Read only where an assistant is offered: elsewhere there is no conversation to show.
  const history = useLoad(
    async () => (offered ? shownMessages((await app.listChatMessages(threadId)).messages) : []),
    [app, threadId, offered],
  );
  const [added, setAdded] = useState<ChatMessage[]>([]);
  const [request, setRequest] = useState("");
  // Another thread (another template open in the same place): nothing of this one's talk stays.
  const [shownThread, setShownThread] = useState(threadId);
  if (shownThread !== threadId) {
    setShownThread(threadId);
    setAdded([]);
    setRequest("");
  }
  const messages = [...(history.data ?? []), ...added];
  const ask = useAction(async () => {
    const question: ChatMessage = { role: "user", content: [{ type: "text", text: request.trim() }] };
    await app.saveChatMessage(threadId, question);
    setAdded((list) => [...list, question]);
    setRequest("");
    const reply = await app.sendChatMessage(threadId, contextType, [...messages, question]);
    const answer: ChatMessage = { role: "assistant", content: reply.content };
    await app.saveChatMessage(threadId, answer);
    setAdded((list) => [...list, answer]);
  });
  if (!offered) return null;
  return (
    <section className="card ai-chat" aria-labelledby={`ai-chat-${threadId}`}>
      <h3 id={`ai-chat-${threadId}`}>Ask for a change</h3>
      {messages.length > 0 ? (
        <ol className="ai-chat-messages">
          {messages.map((message, i) => (
            <li key={i} className={`ai-chat-message ai-chat-${message.role}`}>
              <span className="ai-chat-who">{message.role === "user" ? "You" : "Assistant"}</span>
              {message.content.map((block, j) => {
                if (block.type === "text") return <p key={j}>{block.text}</p>;
                const source = proposedSource(block);
                return source === null ? null : (
                  <p key={j}>
                    <button type="button" className="button button-secondary" onClick={() => onUse(source)}>
                      Use this version
                    </button>
                  </p>
                );
              })}
            </li>
          ))}
        </ol>
      ) : (
        <p className="field-hint">Describe what to change; the assistant proposes a new version for you to preview and save.</p>
      )}
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (request.trim()) void ask.run();
        }}
      >
        <Field label="Your request">
          {(props) => <textarea {...props} className="input" rows={2} value={request} onChange={(e) => setRequest(e.target.value)} />}
        </Field>
        <button type="submit" className="button" disabled={ask.pending || !request.trim()}>
          {ask.pending ? "Asking…" : "Ask"}
        </button>
      </form>
      <ActionStatus error={ask.error ?? (history.status === "error" ? "The conversation could not be loaded." : null)} />
    </section>
  );
}
