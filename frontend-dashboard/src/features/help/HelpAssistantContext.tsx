import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TooltipProvider } from './Tooltip';
import { requestTopic, type ChatMessage, type HelpTopic } from './topics';
import { HelpLauncher } from './HelpLauncher';
import styles from './HelpAssistant.module.css';

// The chat, its Markdown renderer and copy buttons load on first open: the dashboard's first load does not pay for them.
const HelpChat = lazy(() => import('./HelpChat'));

/** Spec 001 §4: closed, open, minimised. */
export type HelpChatState = 'closed' | 'open' | 'minimised';

interface HelpAssistantValue {
  open(topic: HelpTopic | string): void;
}

const HelpAssistantContext = createContext<HelpAssistantValue | null>(null);

export function useHelpAssistant(): HelpAssistantValue {
  const value = useContext(HelpAssistantContext);
  if (!value) throw new Error('useHelpAssistant needs a HelpAssistantProvider above it');
  return value;
}

/**
 * Holds the help chat for the dashboard: its state, topic and messages survive minimising; closing
 * ends the conversation. The agent the answers are grounded in is the dashboard's (?agent=), else the
 * logged-in agent (the server decides).
 */
export function HelpAssistantProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<HelpChatState>('closed');
  const [topic, setTopic] = useState('general-help');
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [params] = useSearchParams();
  const agentParam = Number(params.get('agent'));
  const context = useMemo(() => {
    const c: Record<string, string | number | boolean | null> = {};
    if (Number.isSafeInteger(agentParam) && agentParam > 0) c.agentId = agentParam;
    return c;
  }, [agentParam]);

  const open = useCallback(
    (next: HelpTopic | string) => {
      const t = requestTopic(next);
      if (t !== topic) {
        // Another subject: a new conversation (its first answer is requested when the chat shows it).
        setTopic(t);
        setMessages([]);
      }
      setState('open');
    },
    [topic],
  );
  const value = useMemo(() => ({ open }), [open]);

  const close = () => {
    setState('closed');
    setMessages([]);
  };

  return (
    <HelpAssistantContext.Provider value={value}>
      <TooltipProvider>
        {children}
        <div className={styles.dock} data-state={state}>
          {state === 'open' ? (
            <Suspense fallback={<div className={styles.panelLoading} role="status">Getting help...</div>}>
              <HelpChat
                topic={topic}
                context={context}
                messages={messages}
                setMessages={setMessages}
                onMinimise={() => setState('minimised')}
                onClose={close}
              />
            </Suspense>
          ) : (
            <HelpLauncher
              minimised={state === 'minimised'}
              onClick={() => (state === 'minimised' ? setState('open') : open('general-help'))}
            />
          )}
        </div>
      </TooltipProvider>
    </HelpAssistantContext.Provider>
  );
}
