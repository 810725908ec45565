import { Model } from 'objection';

export class Agent extends Model {
  static override tableName = 'agents';

  id!: number;
  name!: string;
  email!: string | null;
  phone!: string | null;
  state!: string;
  brokerage!: string | null;
  mlsId!: string | null;
  /** Which MLS the member belongs to (`config.mlsSystem`); with mlsId, the identity of an MLS agent. */
  mlsSystem!: string | null;
  /**
   * What the MLS publishes for the member (source 'mls'), refreshed by every find, never by edits. The email is
   * the trust anchor: whoever opens a link sent to it owns the identity. An unverified identity's public pages
   * show these.
   */
  mlsEmail!: string | null;
  mlsName!: string | null;
  mlsPhone!: string | null;
  mlsBrokerage!: string | null;
  /** When someone first opened a link sent to the agent's email (or signed in with Google's verified email). */
  verifiedAt!: Date | null;
  source!: 'mls' | 'manual';
  profileImageUrl!: string | null;
  logoUrl!: string | null;
  passwordHash!: string | null;
  googleId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;

  get hasPassword(): boolean {
    return !!this.passwordHash;
  }

  /** An owner proved the email: branding, contact and lead routing reach public pages; email may carry content. */
  get verified(): boolean {
    return !!this.verifiedAt;
  }

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
