export { INVALID_REQUEST_WINDOW_MS, InvalidRequestBudget, isInvalidAnswer } from './invalid-budget.ts';
export {
  BUDGET_HEADER,
  DEFAULT_INVALID_REQUEST_BUDGET,
  type DiscordProxy,
  type DiscordProxyOptions,
  GLOBAL_SHARE,
  startDiscordProxy,
} from './proxy.ts';
export { routeLabel } from './route-label.ts';
