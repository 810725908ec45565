import { useEffect, useRef, useState, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
// The zod-free door, not the contracts barrel (which carries zod).
import { buildHelpFollowUp, helpTitle, HELP_FIRST_ERROR, HELP_FOLLOW_UP_ERROR, HELP_PENDING_FIRST, HELP_PENDING_FOLLOW_UP } from '@app/contracts/rules';
import { useAskHelpMutation } from './helpApi';
import type { ChatMessage } from './topics';
import { HelpMarkdown } from './HelpMarkdown';
import { Tooltip } from './Tooltip';
import styles from './HelpAssistant.module.css';

interface Props {
  topic: string;
  context: Record<string, string | number | boolean | null>;
  messages: ChatMessage[];
  setMessages: Dispatch<SetStateAction<ChatMessage[]>>;
  onMinimise: () => void;
  onClose: () => void;
}

const message = (content: string, isUser: boolean): ChatMessage => {
  const now = new Date();
  return { id: `${now.getTime()}-${Math.random().toString(36).slice(2, 7)}`, content, isUser, timestamp: now };
};

/** The open help chat (spec 001 §2, §4, §8): title by topic, the messages, the follow-up input. */
export default function HelpChat({ topic, context, messages, setMessages, onMinimise, onClose }: Props) {
  const [askHelp] = useAskHelpMutation();
  const [pending, setPending] = useState<'first' | 'follow-up' | null>(null);
  const [draft, setDraft] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const askedFirst = useRef<string | null>(null);

  // Opening with no messages requests the first answer (once per conversation, StrictMode included).
  useEffect(() => {
    if (messages.length > 0 || askedFirst.current === topic) return;
    askedFirst.current = topic;
    setPending('first');
    askHelp({ topic, context })
      .unwrap()
      .then((r) => setMessages((m) => [...m, message(r.response, false)]))
      .catch((err: unknown) => {
        console.warn('Help request failed', err);
        setMessages((m) => [...m, message(HELP_FIRST_ERROR, false)]);
      })
      .finally(() => setPending(null));
  }, [topic, context, messages.length, askHelp, setMessages]);

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, pending]);

  const canSend = draft.trim().length > 0 && pending === null;

  const send = () => {
    if (!canSend) return;
    const question = draft.trim();
    const body = buildHelpFollowUp({ topic, context }, messages, question);
    setMessages((m) => [...m, message(question, true)]);
    setDraft('');
    setPending('follow-up');
    askHelp(body)
      .unwrap()
      .then((r) => setMessages((m) => [...m, message(r.response, false)]))
      .catch((err: unknown) => {
        console.warn('Help follow-up failed', err);
        setMessages((m) => [...m, message(HELP_FOLLOW_UP_ERROR, false)]);
      })
      .finally(() => {
        setPending(null);
        inputRef.current?.focus();
      });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter (and Enter while an IME composes) makes a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const title = helpTitle(topic);
  return (
    <section className={styles.panel} aria-label={title}>
      <header className={styles.header}>
        <h2 className={styles.title}>{title}</h2>
        <Tooltip content="Minimize">
          <button type="button" className={styles.headerButton} aria-label="Minimize Help Assistant" onClick={onMinimise}>
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="M3 8h10" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></svg>
          </button>
        </Tooltip>
        <Tooltip content="Close">
          <button type="button" className={styles.headerButton} aria-label="Close Help Assistant" onClick={onClose}>
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></svg>
          </button>
        </Tooltip>
      </header>
      <div ref={listRef} className={styles.messages} role="log" aria-live="polite" aria-label="Help conversation">
        {messages.map((m) => (
          <div key={m.id} className={m.isUser ? styles.userMessage : styles.assistantMessage} data-testid={m.isUser ? 'help-user-message' : 'help-answer'}>
            {m.isUser ? <p className={styles.userText}>{m.content}</p> : <HelpMarkdown>{m.content}</HelpMarkdown>}
          </div>
        ))}
        {pending && (
          <p className={styles.pending} role="status">
            {pending === 'first' ? HELP_PENDING_FIRST : HELP_PENDING_FOLLOW_UP}
          </p>
        )}
      </div>
      <form
        className={styles.inputRow}
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          ref={inputRef}
          className={styles.input}
          value={draft}
          rows={2}
          placeholder="Ask a follow-up question..."
          aria-label="Ask a follow-up question"
          disabled={pending !== null}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className={styles.send} disabled={!canSend} aria-label="Send">
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M3 10l14-7-5 14-2.5-5.5L3 10z" fill="currentColor" /></svg>
        </button>
      </form>
    </section>
  );
}
