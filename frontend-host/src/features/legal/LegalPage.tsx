import { PageLayout, Panel } from '@app/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../components/PageShell';
import { SiteHeader } from '../../components/SiteHeader';
import styles from './Legal.module.css';

/** The frame of the terms and the privacy policy: a plain, readable page that links to the other one. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <PageLayout header={<SiteHeader />} mainClassName={styles.main}>
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.updated}>Last updated {updated}</p>
      <Panel as="article" className={styles.body}>
        {children}
        <h2>Related</h2>
        <p>
          <Link to="/terms">Terms of Service</Link> · <Link to="/privacy">Privacy Policy</Link> ·{' '}
          <Link to="/">Promote a listing</Link>
        </p>
      </Panel>
    </PageLayout>
  );
}

/** When the texts last changed (shown on both pages). */
export const LEGAL_UPDATED = 'November 23, 2026';
