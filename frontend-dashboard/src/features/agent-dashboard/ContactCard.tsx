import { useId, useState, type FormEvent } from 'react';
import type { AgentView } from '@app/contracts';
import { Button, Panel, TextField } from '@app/ui';
// The zod-free door: the dashboard keeps zod out of its bundle (see store/api.ts).
import { initials, formatPhone, phoneHref } from '@app/contracts/rules';
import { errorFields, validateProfile, type ProfileEdit, type ProfileErrors } from './profileEdit';
import { useUpdateProfileMutation } from './dashboardApi';
import type { CardToast } from '../card-toast';
import styles from './Cards.module.css';

/** Contact Card (spec 001 §2): photo or initials, name, brokerage, email, phone, state, MLS ID, and Edit. */
export function ContactCard({ agent, toast }: { agent: AgentView; toast: (t: CardToast) => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <Panel title="Contact Card" aria-label="Contact Card" className={styles.card}>
      <div className={styles.contact}>
        {agent.profileImageUrl ? (
          <img className={styles.avatar} src={agent.profileImageUrl} alt={agent.name} width={64} height={64} />
        ) : (
          <span className={styles.initials} aria-hidden="true">
            {initials(agent.name)}
          </span>
        )}
        <div>
          <p className={styles.name}>{agent.name}</p>
          {agent.brokerage && <p className={styles.muted}>{agent.brokerage}</p>}
        </div>
      </div>
      <dl className={styles.facts}>
        <dt>Email</dt>
        <dd>{agent.email || '—'}</dd>
        <dt>Phone</dt>
        <dd>{agent.phone ? phoneHref(agent.phone) ? <a href={phoneHref(agent.phone)!}>{formatPhone(agent.phone)}</a> : formatPhone(agent.phone) : '—'}</dd>
        <dt>State</dt>
        <dd>{agent.state || '—'}</dd>
        <dt>MLS ID</dt>
        <dd>{agent.mlsId || '—'}</dd>
      </dl>
      <Button variant="secondary" onClick={() => setEditing(true)}>
        Edit
      </Button>
      {editing && <EditContactDialog agent={agent} toast={toast} onClose={() => setEditing(false)} />}
    </Panel>
  );
}

function EditContactDialog({ agent, toast, onClose }: { agent: AgentView; toast: (t: CardToast) => void; onClose: () => void }) {
  const id = useId();
  const [form, setForm] = useState<ProfileEdit>({
    name: agent.name,
    email: agent.email ?? '',
    phone: agent.phone ?? '',
    brokerage: agent.brokerage ?? '',
    mlsId: agent.mlsId ?? '',
  });
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [update, { isLoading }] = useUpdateProfileMutation();

  async function save(e: FormEvent) {
    e.preventDefault();
    const found = validateProfile(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const saved = await update({ id: String(agent.id), body: form }).unwrap();
      toast({
        title: 'Profile Updated',
        description: saved.pendingEmail
          ? `Your contact information has been successfully updated. We sent a link to ${saved.pendingEmail}: the new email counts once you open it.`
          : 'Your contact information has been successfully updated.',
        tone: 'success',
      });
      onClose();
    } catch (err) {
      const fields = errorFields(err);
      if (fields) setErrors(fields);
      toast({ title: 'Update Failed', description: 'Failed to update profile. Please try again.', tone: 'danger' });
    }
  }

  const field = (key: keyof ProfileEdit, label: string, type = 'text') => (
    <TextField id={`${id}-${key}`} label={label} error={errors[key]} type={type} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
  );

  return (
    <div className={styles.backdrop}>
      <form role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} className={styles.dialog} onSubmit={(e) => void save(e)} noValidate>
        <h2 id={`${id}-title`} className={styles.dialogTitle}>
          Edit Contact Information
        </h2>
        {field('name', 'Full Name')}
        {field('email', 'Email', 'email')}
        {field('phone', 'Phone', 'tel')}
        {field('brokerage', 'Brokerage')}
        {field('mlsId', 'MLS ID')}
        <div className={styles.dialogActions}>
          <Button variant="secondary" onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" busy={isLoading} disabled={isLoading}>
            Save Changes
          </Button>
        </div>
      </form>
    </div>
  );
}
