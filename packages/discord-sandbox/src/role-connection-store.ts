/**
 * What the sandbox keeps of Discord's Linked Roles: the application's metadata records, every
 * user's role connection and their update buckets (`role-connections.ts` serves the routes).
 */

export const ROLE_CONNECTIONS_SCOPE = 'role_connections.write';
export const USER_UPDATE_LIMIT = { limit: 5, windowMs: 5000 };

export interface RoleConnectionMetadata {
  type: number;
  key: string;
  name: string;
  description: string;
}

export interface UserRoleConnection {
  platform_name: string | null;
  platform_username: string | null;
  metadata: Record<string, string>;
}

/** The application's metadata records, every user's connection, and the per-user update buckets. */
export class RoleConnectionStore {
  metadata: RoleConnectionMetadata[] = [];
  byUser = new Map<string, UserRoleConnection>();
  private windows = new Map<string, { start: number; count: number }>();

  clear(): void {
    this.metadata = [];
    this.byUser.clear();
    this.windows.clear();
  }

  /** Counts one update by the user; the time its window ends when it is over the limit, else null. */
  take(userId: string, now: number): number | null {
    const win = this.windows.get(userId);
    if (!win || now - win.start >= USER_UPDATE_LIMIT.windowMs) {
      this.windows.set(userId, { start: now, count: 1 });
      return null;
    }
    if (win.count >= USER_UPDATE_LIMIT.limit) return win.start + USER_UPDATE_LIMIT.windowMs;
    win.count += 1;
    return null;
  }

  dump() {
    return {
      metadata: structuredClone(this.metadata),
      users: Object.fromEntries([...this.byUser].map(([id, c]) => [id, structuredClone(c)])),
    };
  }
}
