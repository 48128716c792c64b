/**
 * One member's gateway events handled in the order the gateway sent them (each waits for the one
 * before), different members' side by side. Each feature keeps its own chains (`memberOrder()`),
 * so one feature's slow handler never holds up another's.
 */
export function memberOrder(): (
  guildId: string,
  userId: string,
  handle: () => Promise<void>,
) => Promise<void> {
  const chains = new Map<string, Promise<void>>();
  return (guildId, userId, handle) => {
    const key = `${guildId}:${userId}`;
    const next = (chains.get(key) ?? Promise.resolve()).then(handle);
    const settled = next.catch(() => {});
    chains.set(key, settled);
    void settled.then(() => {
      if (chains.get(key) === settled) chains.delete(key);
    });
    return next;
  };
}
