import { useEffect, useRef, useState } from 'react';
import styles from './Landing.module.css';

/** Made by scripts/make-landing-video.mjs from the demo MLS photos (12 s, 480×360, no audio). */
export const LANDING_VIDEO = {
  webm: '/landing/landing-loop.webm',
  mp4: '/landing/landing-loop.mp4',
  poster: '/landing/landing-loop.jpg',
} as const;

/** Where the showcase (and so the video) is shown: the landing's desktop layout. */
const DESKTOP_QUERY = '(min-width: 1024px)';
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * Spec 000 §2: on desktop a looping video is shown. It is added only after the page has loaded
 * (never part of the first paint, so the headline stays the largest contentful paint; the video is
 * also smaller than the headline), only on desktop, muted, looping, inline, with a poster; and it
 * stays paused on its poster while the agent prefers reduced motion. Nothing here runs during
 * render, so the landing still renders on the server.
 */
export function LandingVideo() {
  const [mounted, setMounted] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const desktop = window.matchMedia(DESKTOP_QUERY);
    let timer = 0;
    const mountIfDesktop = () => {
      if (desktop.matches) setMounted(true);
    };
    // After the load event and one more task: the first paint and the page's own resources come first.
    const afterLoad = () => {
      timer = window.setTimeout(mountIfDesktop, 0);
    };
    if (document.readyState === 'complete') afterLoad();
    else window.addEventListener('load', afterLoad, { once: true });
    desktop.addEventListener('change', mountIfDesktop);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('load', afterLoad);
      desktop.removeEventListener('change', mountIfDesktop);
    };
  }, []);

  useEffect(() => {
    const element = video.current;
    if (!mounted || !element) return;
    const reduced = window.matchMedia(REDUCED_MOTION_QUERY);
    const apply = () => {
      if (reduced.matches) element.pause();
      // A muted video may play without a gesture; a refusal just leaves the poster.
      else void element.play().catch(() => undefined);
    };
    apply();
    reduced.addEventListener('change', apply);
    return () => reduced.removeEventListener('change', apply);
  }, [mounted]);

  if (!mounted) return null;
  return (
    <video
      ref={video}
      className={styles.adVideo}
      data-testid="landing-video"
      muted
      loop
      playsInline
      preload="auto"
      poster={LANDING_VIDEO.poster}
      aria-hidden="true"
      tabIndex={-1}
    >
      <source src={LANDING_VIDEO.webm} type="video/webm" />
      <source src={LANDING_VIDEO.mp4} type="video/mp4" />
    </video>
  );
}
