import { getConfig } from '../config.ts';

export const AVATAR_SIZE = 64;
export const GUILD_ICON_SIZE = 128;

export function avatarUrl(user: { id: string; avatar: string | null; discriminator?: string }): string {
  const cdn = getConfig().cdnBase;
  if (user.avatar) return `${cdn}/avatars/${user.id}/${user.avatar}.png?size=${AVATAR_SIZE}`;
  // Discord's default avatars: (id >> 22) % 6 for new usernames, discriminator % 5 for legacy ones.
  const legacy = user.discriminator && user.discriminator !== '0' ? Number(user.discriminator) % 5 : null;
  const index = legacy ?? Number((BigInt(user.id) >> 22n) % 6n);
  return `${cdn}/embed/avatars/${index}.png`;
}

export function guildIconUrl(guild: { id: string; icon: string | null }): string | null {
  return guild.icon
    ? `${getConfig().cdnBase}/icons/${guild.id}/${guild.icon}.png?size=${GUILD_ICON_SIZE}`
    : null;
}

export const EMOJI_SIZE = 48;

/** A server's custom emoji as an image (animated ones as a GIF). */
export function emojiUrl(emoji: { id: string; animated: boolean }): string {
  return `${getConfig().cdnBase}/emojis/${emoji.id}.${emoji.animated ? 'gif' : 'png'}?size=${EMOJI_SIZE}`;
}
