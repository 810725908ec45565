import { useState } from 'react';
import { srcOf, srcSetOf } from './images';
import { Placeholder } from './Placeholder';

/**
 * A listing photo in a fixed-ratio box: width and height attributes give the browser the box before the
 * image arrives (no layout shift); object-fit crops. Falls back to the placeholder when it cannot load.
 */
export function Photo(props: { url: string; alt: string; status: string; sizes: string; width: number; height: number; priority?: boolean; placeholderLabel?: boolean }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <Placeholder status={props.status} label={props.placeholderLabel ?? true} />;
  return (
    <img
      className="lp-photo"
      src={srcOf(props.url)}
      srcSet={srcSetOf(props.url)}
      sizes={props.sizes}
      width={props.width}
      height={props.height}
      alt={props.alt}
      loading={props.priority ? 'eager' : 'lazy'}
      decoding={props.priority ? 'sync' : 'async'}
      fetchPriority={props.priority ? 'high' : 'auto'}
      onError={() => setBroken(true)}
    />
  );
}
