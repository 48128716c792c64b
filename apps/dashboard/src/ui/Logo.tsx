export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="logo-planet" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8b7cff" />
          <stop offset="1" stopColor="#ff6fb5" />
        </linearGradient>
      </defs>
      <circle cx="32" cy="32" r="18" fill="url(#logo-planet)" />
      <ellipse
        cx="32"
        cy="32"
        rx="29"
        ry="9"
        fill="none"
        stroke="#5ee1ff"
        strokeWidth="3"
        transform="rotate(-20 32 32)"
      />
    </svg>
  );
}
