import { Model } from 'objection';
import type { ListingStatus } from '@app/contracts';

/** What a listing keeps for MLS/IDX display rules: where it came from and who listed it. */
export interface MlsCompliance {
  mlsName?: string | null;
  brokerage?: string | null;
  broker?: string | null;
  disclaimer?: string | null;
}

export class Listing extends Model {
  static override tableName = 'listings';
  static override jsonAttributes = ['images', 'amenities', 'mlsCompliance'];

  id!: number;
  agentId!: number;
  mlsId!: string;
  address!: string;
  city!: string;
  state!: string;
  postalCode!: string | null;
  /** int8: pg hands it back as a string. */
  priceCents!: number | string;
  bedrooms!: number | null;
  /** numeric: pg hands it back as a string ("2.00"). */
  bathrooms!: string | number | null;
  squareFeet!: number | null;
  status!: ListingStatus;
  imageUrl!: string | null;
  images!: string[];
  description!: string | null;
  lotSize!: string | null;
  lotSizeSqFt!: number | null;
  yearBuilt!: number | null;
  garageSpaces!: number | null;
  propertyType!: string | null;
  amenities!: Record<string, unknown>;
  elementarySchool!: string | null;
  middleSchool!: string | null;
  highSchool!: string | null;
  schoolDistrict!: string | null;
  latitude!: string | number | null;
  longitude!: string | number | null;
  /** date columns: pg makes a Date at local midnight. */
  listDate!: Date | string | null;
  soldDate!: Date | string | null;
  daysOnMarket!: number | null;
  zillowUrl!: string | null;
  originatingSystemName!: string | null;
  mlsCompliance!: MlsCompliance;
  createdAt!: Date;
  updatedAt!: Date;

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
