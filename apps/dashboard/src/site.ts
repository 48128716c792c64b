/** Public links shown on the landing page, terms and privacy. */
export const COMMUNITY_SERVER_URL = 'https://discord.gg/spacecadet';
export const SUPPORT_SERVER_URL = 'https://discord.gg/spacecadet-support';
/** Typed tagline: how long a fully typed line stays before it is erased. */
export const TAGLINE_PAUSE_MS = 5000;
