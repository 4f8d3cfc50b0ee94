import type { ToolCallDecision, ToolCallListener } from '../tool-call-listener.js';
import { logger } from './logger.js';

/**
 * Tells `listener` of a decision an adapter saw (`ToolCallListener.onDecision`). A listener that
 * throws is logged: the framework's approval flow goes on as it would unobserved.
 */
export function tellDecision(listener: Pick<ToolCallListener, 'onDecision'>, decision: ToolCallDecision): void {
  try {
    listener.onDecision?.(decision);
  } catch (error) {
    logger.error(`onDecision threw for '${decision.toolName}'`, error);
  }
}
