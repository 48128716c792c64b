/** Typed tagline: how long a fully typed line stays before it is erased. */
export const TAGLINE_PAUSE_MS = 5000;
