import { adLinkDescription, listingImages } from '@app/contracts';
import { useAdCopy } from '../ad-copy/useAdCopy';
import { useAppSelector } from '../../../../store/hooks';
import { selectWizard } from '../../draft/wizardSlice';
import type { AdPreviewModel } from './AdPreview';

/** The live ad preview of the current draft (steps 2 and 3). */
export function useAdPreviewModel(): AdPreviewModel | null {
  const { agent, listing, campaign } = useAppSelector(selectWizard);
  const adCopy = useAdCopy();
  if (!listing || !campaign) return null;
  const carousel = campaign.adFormat === 'carousel';
  const single = campaign.imageUrl ?? listingImages(listing)[0] ?? null;
  return {
    pageName: agent?.name ?? '',
    brokerage: agent?.brokerage?.trim() || null,
    avatarUrl: agent?.profileImageUrl || agent?.logoUrl || null,
    text: adCopy.text,
    textPhase: adCopy.phase,
    headline: campaign.headline ?? '',
    linkDescription: adLinkDescription({ agentName: agent?.name, brokerage: agent?.brokerage, subtitle: campaign.subtitle }),
    callToAction: campaign.callToAction ?? '',
    link: campaign.link ?? '',
    format: carousel ? 'carousel' : 'single',
    images: carousel ? (campaign.carouselImages ?? []) : single ? [single] : [],
    photoAlt: listing.address,
  };
}
