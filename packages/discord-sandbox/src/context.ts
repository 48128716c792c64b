import type { SandboxState } from './state.ts';

/** What every route module needs: the world, and where this server is reachable. */
export interface SandboxContext {
  state: SandboxState;
  /** `http://host:port`, known once the server listens. */
  url(): string;
  /**
   * `ws://…/gateway` as the caller reached us (its Host header), so a bot in another
   * container gets an address it can connect to; falls back to `url()`.
   */
  gatewayUrl(host?: string): string;
  connectedSessions(): number;
  interactionTimeoutMs: number;
}
