/** The pending approvals' questions: a wait taken once, the table bounded with the oldest forgotten first. */
import { describe, expect, it } from 'vitest';
import { MAX_PENDING_APPROVALS, rememberAsked, takeWaitSeconds } from '../../../src/adapters/ai-sdk/approval-waits.js';

describe('approval waits', () => {
  it('gives the wait since the question once, and nothing for a question never asked here', async () => {
    rememberAsked('call_a');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const wait = takeWaitSeconds('call_a');
    expect(wait).toBeGreaterThanOrEqual(0.015);
    expect(wait).toBeLessThan(60);
    expect(takeWaitSeconds('call_a')).toBeUndefined();
    expect(takeWaitSeconds('asked elsewhere')).toBeUndefined();
  });

  it(`remembers at most ${MAX_PENDING_APPROVALS} questions, forgetting the oldest first`, () => {
    for (let i = 0; i <= MAX_PENDING_APPROVALS; i++) rememberAsked(`call_${i}`);
    expect(takeWaitSeconds('call_0')).toBeUndefined();
    expect(takeWaitSeconds('call_1')).toBeGreaterThanOrEqual(0);
    expect(takeWaitSeconds(`call_${MAX_PENDING_APPROVALS}`)).toBeGreaterThanOrEqual(0);
  });
});
