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
  /** The email the MLS has for this member (source 'mls'); account setup must use it. Never changed by edits. */
  mlsEmail!: string | null;
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

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
