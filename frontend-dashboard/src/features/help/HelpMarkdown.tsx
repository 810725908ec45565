import { useRef, useState, type ReactNode } from 'react';
import Markdown from 'markdown-to-jsx/react';
import styles from './HelpAssistant.module.css';

/** A fenced code block with a copy button (the verification snippets are meant to be pasted). */
function CodeBlock({ children, ...rest }: { children?: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(pre.current?.textContent ?? '');
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (err) {
      console.warn('Copy failed', err);
    }
  };
  return (
    <div className={styles.codeBlock}>
      <button type="button" className={styles.copy} onClick={copy} aria-label={copied ? 'Copied' : 'Copy code'}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <pre ref={pre} {...rest}>
        {children}
      </pre>
    </div>
  );
}

function Link(props: { href?: string; children?: ReactNode }) {
  return (
    <a href={props.href} target="_blank" rel="noopener noreferrer">
      {props.children}
    </a>
  );
}

/** An answer as Markdown. Raw HTML in an answer is shown as text, never rendered. */
export function HelpMarkdown({ children }: { children: string }) {
  return (
    <div className={styles.markdown}>
      <Markdown options={{ disableParsingRawHTML: true, forceBlock: true, overrides: { pre: CodeBlock, a: Link } }}>{children}</Markdown>
    </div>
  );
}
