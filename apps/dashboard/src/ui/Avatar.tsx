import { useState } from 'react';

/** An image that falls back to the name's first letter when missing or broken. */
export function Avatar({
  src,
  name,
  size,
  className = '',
}: {
  src: string | null;
  name: string;
  size: number;
  className?: string;
}) {
  const [broken, setBroken] = useState(false);
  const letter = name.trim().charAt(0).toUpperCase() || '?';
  if (!src || broken) {
    return (
      <span
        className={`avatar avatar-letter ${className}`}
        style={{ width: size, height: size }}
        aria-hidden="true"
      >
        {letter}
      </span>
    );
  }
  return (
    <img
      className={`avatar ${className}`}
      src={src}
      alt=""
      width={size}
      height={size}
      onError={() => setBroken(true)}
    />
  );
}
