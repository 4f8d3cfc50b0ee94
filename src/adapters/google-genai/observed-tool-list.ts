import { isObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { isCallableTool } from './callable-tool.js';
import { observedCallableTool } from './observed-callable-tool.js';
import { CallableToolGroup } from './tool-group.js';

/**
 * `tools` (a `config.tools`) with each CallableTool not observed yet in a stand-in, and its other
 * entries as they are: the CallableTools of the list are one group, which sees the calls none of
 * them declares (tool-group.ts).
 */
export function observedToolList(tools: readonly unknown[], listener: ToolCallListener<unknown>): unknown[] {
  const group = new CallableToolGroup();
  const list = tools.map((tool) =>
    isCallableTool(tool) && !isObserved(tool.callTool) ? observedCallableTool(tool, listener, group) : tool,
  );
  group.members = list.filter(isCallableTool);
  return list;
}
