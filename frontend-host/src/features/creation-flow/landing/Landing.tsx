import { useEffect, useState, type MouseEvent } from 'react';
import { buttonClass } from '@app/ui';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../../components/PageShell';
import styles from './Landing.module.css';
import mobileStyles from '../shared/MobileAction.module.css';
import { LandingVideo } from './LandingVideo';

/**
 * Illustrations bundled with the host (public/landing), so the landing never waits on the backend
 * or the network: three light SVGs of about 1 KB each over the wire.
 */
export const LANDING_BACKGROUNDS = [
  '/landing/suburban-day.svg',
  '/landing/coastal-dusk.svg',
  '/landing/townhouses-twilight.svg',
] as const;

/** Spec 000 §9: the landing background rotates every 5 seconds. */
export const BACKGROUND_ROTATION_MS = 5000;

const SAMPLE_ADS = [
  { badge: 'Just Listed', headline: 'Amazing Property in Naperville', subtitle: 'Looking to buy, rent or sell?' },
  { badge: 'Just Listed', headline: 'Amazing Property in Tampa', subtitle: 'Looking to buy, rent or sell?' },
  { badge: 'Just Sold', headline: 'Just Sold in Brooklyn', subtitle: 'Wondering what your home is worth?' },
] as const;

export interface LandingProps {
  onChoose: (path: 'mls' | 'manual') => void;
  /** The agent is about to choose (pointer over or focus on a button): start fetching step 1. */
  onIntent: () => void;
}

/** Step 1 with nothing chosen yet (spec 000 §2): rotating backgrounds, the promise, two paths. */
export function Landing({ onChoose, onIntent }: LandingProps) {
  useDocumentTitle('Promote Your Listing');
  const [index, setIndex] = useState(0);
  // Until the app runs (on a phone: the first touch, landing-boot.js), the backgrounds rotate by CSS alone
  // (data-static); once it runs, this interval does, and the CSS rotation stops.
  const [live, setLive] = useState(false);

  useEffect(() => {
    setLive(true);
    const timer = window.setInterval(() => {
      setIndex((current) => (current + 1) % LANDING_BACKGROUNDS.length);
    }, BACKGROUND_ROTATION_MS);
    return () => window.clearInterval(timer);
  }, []);

  const ad = SAMPLE_ADS[index];
  const intent = { onPointerEnter: onIntent, onFocus: onIntent, onTouchStart: onIntent };
  // Hydrated: choose in the page. (Before hydration the same buttons submit their form, see below.)
  const choose = (path: 'mls' | 'manual') => (e: MouseEvent) => {
    e.preventDefault();
    onChoose(path);
  };

  return (
    <div className={styles.landing}>
      <div className={styles.backdrop} aria-hidden="true" data-static={live ? undefined : ''}>
        {LANDING_BACKGROUNDS.map((src, i) => (
          <div
            key={src}
            className={styles.slide}
            data-active={i === index}
            data-testid="landing-background"
            style={{ backgroundImage: `url(${src})` }}
          />
        ))}
        <div className={styles.scrim} />
      </div>

      <header className={styles.nav}>
        <span className={styles.brand}>Listing Ads</span>
        <nav aria-label="Main" className={styles.navLinks}>
          <Link to="/overview" className={styles.navLink}>
            How it works
          </Link>
          <Link to="/login" className={styles.navLink}>
            Agent login
          </Link>
        </nav>
      </header>

      <main className={styles.hero}>
        <div className={styles.copy}>
          <p className={styles.eyebrow}>Facebook &amp; Instagram ads for real-estate agents</p>
          <h1 className={styles.headline}>
            Guaranteed, targeted impressions for your listing. <span className={styles.accent}>Fast.</span>
          </h1>
          <p className={styles.lede}>
            Launch your listing ad in under 3 minutes. Local buyers see it, and you see exactly how many did.
            No gimmicks. No guessing.
          </p>
          {/* A real form: a tap on the prerendered page before the JavaScript has started still works
              (the browser asks for /?start=…, which the wizard opens on step 1 of that path). */}
          <form method="get" action="/" className={styles.actions} onSubmit={(e) => e.preventDefault()}>
            <button type="submit" name="start" value="mls" className={buttonClass('primary', { size: 'lg', className: styles.action })} onClick={choose('mls')} {...intent}>
              Find my listings
            </button>
            <button type="submit" name="start" value="manual" className={buttonClass('inverse', { size: 'lg', className: styles.action })} onClick={choose('manual')} {...intent}>
              Enter manually
            </button>
          </form>
          <ul className={styles.points}>
            <li>Guaranteed impressions</li>
            <li>Live in under 3 minutes</li>
            <li>No ad account needed</li>
          </ul>
        </div>

        {/* Desktop: the ad being made, with a looping video of listing photos once the page has loaded. */}
        <figure className={styles.showcase} aria-hidden="true">
          <div className={styles.phone}>
            <div className={styles.adHead}>
              <span className={styles.avatar} />
              <span className={styles.adWho}>
                <strong>Your Brokerage</strong>
                <small>Sponsored</small>
              </span>
            </div>
            <div className={styles.adPhoto}>
              {LANDING_BACKGROUNDS.map((src, i) => (
                <div
                  key={src}
                  className={styles.adSlide}
                  data-active={i === index}
                  style={{ backgroundImage: `url(${src})` }}
                />
              ))}
              <LandingVideo />
              <span className={styles.adBadge} key={ad.badge}>
                {ad.badge}
              </span>
            </div>
            <div className={styles.adBody}>
              <span className={styles.adText}>
                <strong>{ad.headline}</strong>
                <small>{ad.subtitle}</small>
              </span>
              <span className={styles.adCta}>Learn more</span>
            </div>
            <div className={styles.adMeter}>
              <span className={styles.adMeterLabel}>Impressions delivered</span>
              <span className={styles.adMeterTrack}>
                <span className={styles.adMeterFill} key={index} />
              </span>
            </div>
          </div>
          <figcaption className={styles.caption}>Sample ad preview</figcaption>
        </figure>
      </main>

      {/* Phones: a fixed bottom button mirrors the continue action (spec 000 §2), as on every step. */}
      <section className={mobileStyles.mobileBar} aria-label="Step action" data-mobile-action-bar="">
        <form method="get" action="/" onSubmit={(e) => e.preventDefault()}>
          <button type="submit" name="start" value="mls" className={buttonClass('primary', { block: true })} onClick={choose('mls')} {...intent}>
            Find my listings
          </button>
        </form>
      </section>
    </div>
  );
}
