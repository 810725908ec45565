/// <reference types="jest" />
import { adLinkDescription } from '@app/contracts';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AdPreview, type AdPreviewModel } from './AdPreview';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let el: HTMLDivElement;
beforeEach(() => {
  el = document.createElement('div');
  document.body.append(el);
  root = createRoot(el);
});
afterEach(() => {
  act(() => root.unmount());
  el.remove();
});

const line = adLinkDescription({ agentName: 'Sarah Johnson', brokerage: 'Bayshore Realty Group', subtitle: 'Looking to buy, rent or sell?' });
const ad = (over: Partial<AdPreviewModel> = {}): AdPreviewModel => ({
  pageName: 'Sarah Johnson',
  brokerage: 'Bayshore Realty Group',
  avatarUrl: null,
  text: 'Sunny 3-bed home with a pool.',
  textPhase: 'ready',
  headline: 'Amazing Property in Tampa',
  linkDescription: line,
  callToAction: 'Learn more',
  link: 'https://ads.example.com/listing/A1',
  format: 'single',
  images: ['/demo-mls/photos/exterior-01.jpg'],
  photoAlt: '12 Palm Ave',
  ...over,
});
const linkLines = () => [...el.querySelectorAll('[data-testid="ad-link-description"]')].map((p) => p.textContent);

describe('ad preview', () => {
  it('shows the link line exactly as the launch sends it: "agent · brokerage — subtitle"', () => {
    expect(line).toBe('Sarah Johnson · Bayshore Realty Group — Looking to buy, rent or sell?');
    act(() => root.render(<AdPreview ad={ad()} />));
    expect(linkLines()).toEqual([line]);
  });

  it('on every card of a carousel', () => {
    act(() => root.render(<AdPreview ad={ad({ format: 'carousel', images: ['/a.jpg', '/b.jpg', '/c.jpg'] })} />));
    expect(linkLines()).toEqual([line, line, line]);
  });

  it('never shows an error text as the ad text', () => {
    act(() => root.render(<AdPreview ad={ad({ text: '', textPhase: 'failed' })} />));
    expect(el.querySelector('[data-testid="ad-primary-text"]')!.textContent).toBe('Your ad text will appear here.');
  });
});
